import type { ImportFormat } from '../../../contract/imports.ts';

/** The formats offered, with what each expects (the contract's IMPORT_FORMATS). */
export const FORMAT_OPTIONS: readonly { value: ImportFormat; label: string }[] = [
  { value: 'auto', label: 'Recognize it from the file' },
  { value: 'untappd', label: 'Untappd check-ins (CSV)' },
  { value: 'vivino', label: 'Vivino data download (ZIP) or wine list (CSV)' },
  { value: 'cellartracker', label: 'CellarTracker inventory, cellar or consumed bottles (CSV)' },
  { value: 'generic', label: 'The generic CSV template' },
  { value: 'vault', label: 'A vault export (ZIP)' },
];

export const FORMAT_NAMES: Record<ImportFormat, string> = {
  auto: 'Unknown',
  untappd: 'Untappd',
  vivino: 'Vivino',
  cellartracker: 'CellarTracker',
  generic: 'Generic CSV',
  vault: 'Vault export',
};

/** The generic template's header row and one example row. */
export const TEMPLATE_HEADER =
  'type,name,subtype,maker,status,rating,notes,in_cellar,quantity,created_at,drink_from,drink_until';
export const TEMPLATE_EXAMPLE =
  'whiskey,Lagavulin 16,Single Malt,Lagavulin,tried,5,Smoky,yes,2,2024-03-01,,';

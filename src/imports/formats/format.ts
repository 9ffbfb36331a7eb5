import type { CsvRecord, MapResult } from '../rows.ts';

/** A CSV layout the importer knows: recognized by its columns, mapped row by row. */
export interface CsvFormat {
  id: 'untappd' | 'vivino' | 'cellartracker' | 'generic';
  /** Columns (in lower case) that must all be in the header row. */
  required: readonly string[];
  map(record: CsvRecord): MapResult;
}

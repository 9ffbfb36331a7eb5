// The beverage catalogue: types, maker labels and subtype lists.
// Pure data, shared by the server (validation) and the web client (forms); the type names come
// from the contract's enumerations.
import { BEVERAGE_TYPES, type BeverageType } from '../../contract/enums.ts';
import { TYPE_NAMES, type TypeName } from './type-names.ts';

export type BeverageTypeName = BeverageType;

export interface SubtypeGroup {
  label: string;
  subtypes: readonly string[];
}

export interface BeverageKind extends TypeName {
  type: BeverageTypeName;
  makerLabel: string;
  /** Subtypes in display groups; whiskey and beer have one unlabelled group. */
  groups: readonly SubtypeGroup[];
}

export const CATALOG: Readonly<Record<BeverageTypeName, BeverageKind>> = {
  WHISKEY: {
    type: 'WHISKEY',
    ...TYPE_NAMES.WHISKEY,
    makerLabel: 'Distiller',
    groups: [
      {
        label: '',
        subtypes: ['Bourbon', 'Rye', 'Scotch', 'Irish', 'Japanese', 'Single Malt', 'Blended'],
      },
    ],
  },
  WINE: {
    type: 'WINE',
    ...TYPE_NAMES.WINE,
    makerLabel: 'Winery',
    groups: [
      {
        label: 'Red',
        subtypes: [
          'Cabernet Sauvignon',
          'Pinot Noir',
          'Merlot',
          'Syrah',
          'Zinfandel',
          'Malbec',
          'Tempranillo',
          'Sangiovese',
          'Nebbiolo',
          'Grenache',
          'Barbera',
        ],
      },
      {
        label: 'White',
        subtypes: [
          'Chardonnay',
          'Sauvignon Blanc',
          'Riesling',
          'Pinot Grigio',
          'Gewürztraminer',
          'Chenin Blanc',
          'Viognier',
          'Grüner Veltliner',
          'Albariño',
        ],
      },
      { label: 'Sparkling', subtypes: ['Champagne', 'Prosecco', 'Cava', 'Sparkling Rosé'] },
      { label: 'Rosé', subtypes: ['Rosé'] },
      { label: 'Rice Wine', subtypes: ['Sake'] },
    ],
  },
  BEER: {
    type: 'BEER',
    ...TYPE_NAMES.BEER,
    makerLabel: 'Brewing company',
    groups: [
      {
        label: '',
        subtypes: [
          'Lager',
          'Pale Ale',
          'IPA',
          'Stout',
          'Porter',
          'Sour',
          'Pilsner',
          'Wheat',
          'Belgian',
          'Seasonal',
        ],
      },
    ],
  },
};

export const TYPE_ORDER: readonly BeverageTypeName[] = BEVERAGE_TYPES;

/** Every subtype of a type, in order. */
export function subtypesOf(type: BeverageTypeName): string[] {
  return CATALOG[type].groups.flatMap((g) => g.subtypes);
}

/** The first subtype of a type: what the form resets to when the type changes. */
export function firstSubtype(type: BeverageTypeName): string {
  return subtypesOf(type)[0]!;
}

/** Whiskey → wine → beer → whiskey. */
export function nextType(type: BeverageTypeName): BeverageTypeName {
  return TYPE_ORDER[(TYPE_ORDER.indexOf(type) + 1) % TYPE_ORDER.length]!;
}

export const RATING_MIN = 0;
export const RATING_MAX = 5;
export const DEFAULT_RATING = 3;
export {
  MAKER_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NOTES_MAX_LENGTH,
} from '../../contract/entry-limits.ts';

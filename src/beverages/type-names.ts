// What each type of entry is called and where its archive is: the part of the catalogue the
// client's navigation needs at start, apart from the subtype lists (src/beverages/catalog.ts),
// so that the first download does not carry them.
import type { BeverageType } from '../../contract/enums.ts';

export interface TypeName {
  /** 'Whiskey', 'Wine', 'Beer' */
  label: string;
  /** The route of the type's archive. */
  path: '/whiskey' | '/wine' | '/beer';
}

export const TYPE_NAMES: Readonly<Record<BeverageType, TypeName>> = {
  WHISKEY: { label: 'Whiskey', path: '/whiskey' },
  WINE: { label: 'Wine', path: '/wine' },
  BEER: { label: 'Beer', path: '/beer' },
};

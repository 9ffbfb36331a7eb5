/**
 * The three kinds of entry. The lists themselves (labels, maker labels,
 * subtypes, limits) come from the catalogue the server validates with, so the two never differ;
 * this module adds what only the client needs: archive titles and routes.
 */
import {
  CATALOG,
  DEFAULT_RATING,
  MAKER_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  RATING_MAX,
  RATING_MIN,
  TYPE_ORDER,
  firstSubtype,
  nextType,
  subtypesOf,
} from '../../src/beverages/catalog.ts';
import type { SubtypeGroup } from '../../src/beverages/catalog.ts';
import type { BeverageStatus, BeverageType } from './api/types.ts';
import { archiveTitle } from './archives.ts';

export type { BeverageStatus, BeverageType, SubtypeGroup };
export {
  CATALOG,
  DEFAULT_RATING,
  MAKER_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  RATING_MAX,
  RATING_MIN,
  firstSubtype,
  nextType,
  subtypesOf,
};

export interface BeverageKind {
  type: BeverageType;
  /** 'Whiskey', 'Wine', 'Beer'. */
  label: string;
  /** The archive route, e.g. /whiskey. */
  path: string;
  /** The archive's title, which is also its navigation item. */
  archiveTitle: string;
  /** Whiskey → wine → beer → whiskey. */
  next: BeverageType;
  /** 'Distiller', 'Winery', 'Brewing company'. */
  makerLabel: string;
  /** Subtypes in display groups; only wine's groups have labels. */
  groups: readonly SubtypeGroup[];
}

function kind(type: BeverageType): BeverageKind {
  const entry = CATALOG[type];
  return {
    type,
    label: entry.label,
    path: entry.path,
    archiveTitle: archiveTitle(type),
    next: nextType(type),
    makerLabel: entry.makerLabel,
    groups: entry.groups,
  };
}

export const BEVERAGE_TYPES: readonly BeverageType[] = TYPE_ORDER;

export const BEVERAGE_KINDS: Record<BeverageType, BeverageKind> = {
  WHISKEY: kind('WHISKEY'),
  WINE: kind('WINE'),
  BEER: kind('BEER'),
};

/** How each status is named on screen. */
export const STATUS_LABELS: Record<BeverageStatus, string> = {
  TRIED: 'Tried',
  TO_TRY: 'To try',
};

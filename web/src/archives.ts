/**
 * Each type's archive: its route and its title, which is also its navigation item. Kept apart
 * from beverages.ts (the forms' catalogue with every subtype) so that the navigation, which is in
 * the first download, does not bring the catalogue with it.
 */
import { TYPE_NAMES } from '../../src/beverages/type-names.ts';
import type { BeverageType } from './api/types.ts';

/** 'Whiskey Logs', 'Wine Logs', 'Beer Logs'. */
export const archiveTitle = (type: BeverageType): string => `${TYPE_NAMES[type].label} Logs`;

/** The archive route, e.g. /whiskey. */
export const archivePath = (type: BeverageType): string => TYPE_NAMES[type].path;

import { DRINK_WINDOW_ORDER_MESSAGE } from '../../contract/entry-fields.ts';
import type { BeverageRow, BeverageType } from '../db/schema/index.ts';
import { badRequest } from '../domain-error.ts';
import { CATALOG, DEFAULT_RATING, subtypesOf } from './catalog.ts';
import { changedSetting } from './entry-visibility.ts';
import type { BeverageChanges } from './repository.ts';
import type { EntryChanges } from './service.ts';

// The rules of an entry's fields when it is logged or changed (src/beverages/service.ts).

/** A subtype must be one of the type's (src/beverages/catalog.ts). */
export function assertSubtype(type: BeverageType, subtype: string) {
  if (!subtypesOf(type).includes(subtype)) {
    throw badRequest(`${subtype} is not a kind of ${CATALOG[type].label.toLowerCase()}`);
  }
}

/** A drinking window ends in or after the year it starts (either bound may be open: null). */
export function assertWindow(from: number | null, until: number | null) {
  if (from !== null && until !== null && until < from) {
    throw badRequest(DRINK_WINDOW_ORDER_MESSAGE);
  }
}

/** The merged entry after changes, with the entry status and visibility rules applied. */
export function mergeChanges(entry: BeverageRow, changes: EntryChanges): BeverageChanges {
  const type = changes.type ?? entry.type;
  let subtype = changes.subtype ?? entry.subtype;
  if (changes.type !== undefined && changes.subtype === undefined && type !== entry.type) {
    // A type change without a subtype resets it, as the form does.
    subtype = subtypesOf(type)[0]!;
  }
  assertSubtype(type, subtype);
  const status = changes.status ?? entry.status;
  let rating = changes.rating ?? entry.rating;
  if (status === 'TO_TRY') rating = 0;
  else if (entry.status === 'TO_TRY' && changes.rating === undefined && rating === 0) {
    rating = DEFAULT_RATING;
  }
  const drinkFrom = changes.drinkFrom !== undefined ? changes.drinkFrom : entry.drinkFrom;
  const drinkUntil = changes.drinkUntil !== undefined ? changes.drinkUntil : entry.drinkUntil;
  assertWindow(drinkFrom, drinkUntil);
  return {
    type,
    subtype,
    status,
    rating,
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.makerName !== undefined && { makerName: changes.makerName }),
    ...(changes.notes !== undefined && { notes: changes.notes }),
    ...(changes.inCellar !== undefined && { inCellar: changes.inCellar }),
    ...(changes.drinkFrom !== undefined && { drinkFrom }),
    ...(changes.drinkUntil !== undefined && { drinkUntil }),
    ...changedSetting(entry, changes),
  };
}

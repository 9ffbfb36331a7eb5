/**
 * The state of the entry form, as pure functions. The 'Log a new
 * beverage' form and the edit dialog share it, so both follow the same rules:
 * - defaults: WHISKEY, TRIED, rating 3, not in cellar;
 * - changing the type resets name, subtype (to the type's first) and maker;
 * - TO_TRY forces rating 0 (the slider is disabled and shows Pending);
 * - back to TRIED restores rating 3 if it was 0;
 * - after a save the form resets but keeps the type and the cellar choice;
 * - the drinking window is two years as typed ('' for an open bound); on a change an empty one
 *   is sent, so that it clears.
 *
 * No DOM or React here, so it can be unit-tested in Node.
 */
import type { EntryBasics } from '../../../contract/entry-basics.ts';
import type { Beverage, BeverageStatus, BeverageType } from '../api/types.ts';
import { DEFAULT_RATING, RATING_MAX, RATING_MIN, firstSubtype, subtypesOf } from '../beverages.ts';

export const NAME_REQUIRED = 'Name is required';

/** The form's entry: its basic fields (contract/entry-basics.ts) and its drinking window. */
export interface EntryDraft extends EntryBasics {
  /** The drinking window's first and last year, as typed; '' when open. */
  drinkFrom: string;
  drinkUntil: string;
}

export type TextField = 'name' | 'subtype' | 'makerName' | 'notes' | 'drinkFrom' | 'drinkUntil';

export type EntryAction =
  | { kind: 'type'; type: BeverageType }
  | { kind: 'text'; field: TextField; value: string }
  | { kind: 'rating'; rating: number }
  | { kind: 'status'; status: BeverageStatus }
  | { kind: 'cellar'; inCellar: boolean }
  /** The entry was saved: start a fresh one, keeping type and cellar choice. */
  | { kind: 'saved' }
  /** Replace everything (opening the edit dialog, or the server's answer). */
  | { kind: 'load'; draft: EntryDraft };

/** A fresh form: WHISKEY, TRIED, rating 3, not in cellar. */
export function newDraft(type: BeverageType = 'WHISKEY', inCellar = false): EntryDraft {
  return {
    type,
    name: '',
    subtype: firstSubtype(type),
    makerName: '',
    rating: DEFAULT_RATING,
    status: 'TRIED',
    inCellar,
    notes: '',
    drinkFrom: '',
    drinkUntil: '',
  };
}

/** The form state of an existing entry, for the edit dialog. */
export function draftOf(entry: Beverage): EntryDraft {
  return {
    type: entry.type,
    name: entry.name,
    subtype: subtypesOf(entry.type).includes(entry.subtype)
      ? entry.subtype
      : firstSubtype(entry.type),
    makerName: entry.makerName,
    rating: entry.status === 'TO_TRY' ? 0 : entry.rating,
    status: entry.status,
    inCellar: entry.inCellar,
    notes: entry.notes,
    drinkFrom: entry.drinkFrom === null ? '' : String(entry.drinkFrom),
    drinkUntil: entry.drinkUntil === null ? '' : String(entry.drinkUntil),
  };
}

const clampRating = (rating: number) =>
  Math.min(RATING_MAX, Math.max(RATING_MIN, Math.round(Number.isFinite(rating) ? rating : 0)));

/** The status rule alone: TO_TRY forces 0; back to TRIED restores 3 if it was 0. */
export function withStatus(draft: EntryDraft, status: BeverageStatus): EntryDraft {
  if (status === 'TO_TRY') return { ...draft, status, rating: 0 };
  return { ...draft, status, rating: draft.rating === 0 ? DEFAULT_RATING : draft.rating };
}

export function entryReducer(draft: EntryDraft, action: EntryAction): EntryDraft {
  switch (action.kind) {
    case 'type':
      if (action.type === draft.type) return draft;
      return {
        ...draft,
        type: action.type,
        name: '',
        subtype: firstSubtype(action.type),
        makerName: '',
      };
    case 'text':
      return { ...draft, [action.field]: action.value };
    case 'rating':
      // The slider is disabled while to-try; a rating cannot sneak in.
      if (draft.status === 'TO_TRY') return draft;
      return { ...draft, rating: clampRating(action.rating) };
    case 'status':
      if (action.status === draft.status) return draft;
      return withStatus(draft, action.status);
    case 'cellar':
      return { ...draft, inCellar: action.inCellar };
    case 'saved':
      return newDraft(draft.type, draft.inCellar);
    case 'load':
      return action.draft;
  }
}

/** 'Name is required' when the trimmed name is empty; null when the draft can be sent. */
export function validateDraft(draft: EntryDraft): string | null {
  return draft.name.trim() === '' ? NAME_REQUIRED : null;
}

/** The fields that may be empty, in the order they are sent after the others. */
const MAY_BE_EMPTY = ['makerName', 'notes', 'drinkFrom', 'drinkUntil'] as const;

/**
 * The draft as form data: name (trimmed), type, subtype, rating (0 while to-try), status,
 * inCellar, then makerName, notes and the window's years, trimmed; an empty one only when
 * `sendEmpty` (so that it clears).
 */
function draftFormData(draft: EntryDraft, sendEmpty: boolean): FormData {
  const form = new FormData();
  form.set('name', draft.name.trim());
  form.set('type', draft.type);
  form.set('subtype', draft.subtype);
  form.set('rating', String(draft.status === 'TO_TRY' ? 0 : draft.rating));
  form.set('status', draft.status);
  form.set('inCellar', String(draft.inCellar));
  for (const field of MAY_BE_EMPTY) {
    const value = draft[field].trim();
    if (value || sendEmpty) form.set(field, value);
  }
  return form;
}

/** POST /beverages form data: the draft without its empty fields, and the photo if one was chosen. */
export function createFormData(draft: EntryDraft, photo?: Blob | null): FormData {
  const form = draftFormData(draft, false);
  if (photo) form.set('photo', photo);
  return form;
}

/**
 * PATCH /beverages/{id} form data from the edit dialog: every field (an emptied maker, notes or
 * window year is sent as '' so that it is cleared), plus a new photo, or removePhoto.
 */
export function updateFormData(
  draft: EntryDraft,
  photo: { replace?: Blob | null; remove?: boolean } = {},
): FormData {
  const form = draftFormData(draft, true);
  if (photo.replace) form.set('photo', photo.replace);
  else if (photo.remove) form.set('removePhoto', 'true');
  return form;
}

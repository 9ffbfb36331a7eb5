/**
 * An entry's bottles and tastings as the entry's dialog reads and changes them. The writes that
 * must work without a signal go through send.ts; the rest call the vault directly.
 */
import type { CallInput } from '../api/call.ts';
import type { Bottle, BottleCreate, Place } from '../../../contract/cellar.ts';
import type { Tasting, TastingBody } from '../../../contract/tastings.ts';
import { call } from '../api/call.ts';
import { sendCellarWrite } from './send.ts';

export type { Bottle, Place, Tasting };

/**
 * The query keys: under 'cellar' (with the cellar screen's figures and places), so a change
 * made here or there refreshes both; the tastings are the entry's, for everyone who sees it.
 */
export const entryCellarKeys = {
  cellar: ['cellar'] as const,
  places: ['cellar', 'places'] as const,
  bottles: (entryId: number) => ['cellar', 'entry-bottles', entryId] as const,
  tastings: (entryId: number) => ['tastings', entryId] as const,
};

export async function fetchBottles(entryId: number, signal?: AbortSignal): Promise<Bottle[]> {
  return (await call('GET /beverages/{id}/bottles', { params: { id: entryId }, signal })).bottles;
}

export async function fetchPlaces(signal?: AbortSignal): Promise<Place[]> {
  return (await call('GET /cellar/places', { signal })).places;
}

export async function fetchTastings(entryId: number, signal?: AbortSignal): Promise<Tasting[]> {
  return (await call('GET /beverages/{id}/tastings', { params: { id: entryId }, signal })).tastings;
}

/** The JSON of a new bottle line (no zod here: the vault checks it). */
export type BottleInput = Partial<Omit<BottleCreate, 'quantity' | 'sizeMl'>> & {
  quantity: number;
  sizeMl: number;
};

/** Adds a bottle line; null when it waits on the device to be sent. */
export async function addBottle(entryId: number, name: string, json: BottleInput) {
  const sent = await sendCellarWrite(
    'POST /beverages/{id}/bottles',
    { params: { id: entryId }, json },
    `Add bottles of ${name}`,
  );
  return sent.queued ? null : sent.answer.bottle;
}

export async function changeBottle(entryId: number, bottleId: number, json: BottleInput) {
  return (
    await call('PATCH /beverages/{id}/bottles/{bottleId}', {
      params: { id: entryId, bottleId },
      json,
    })
  ).bottle;
}

export async function deleteBottle(entryId: number, bottleId: number): Promise<void> {
  await call('DELETE /beverages/{id}/bottles/{bottleId}', { params: { id: entryId, bottleId } });
}

/** A tasting as the form gives it: the fields, and a photo to add. */
export interface TastingInput {
  body: { tastedOn: string; rating: number | null; notes: string };
  photo: File | null;
  /** On a change: take the stored photo away. */
  removePhoto?: boolean;
}

function tastingForm({ body, photo, removePhoto }: TastingInput): FormData {
  const form = new FormData();
  form.set('tastedOn', body.tastedOn);
  form.set('rating', body.rating === null ? '' : String(body.rating));
  form.set('notes', body.notes);
  if (photo) form.set('photo', photo);
  else if (removePhoto) form.set('removePhoto', 'true');
  return form;
}

/**
 * Opens one bottle of a line, with its tasting when there is one, in one call: JSON, or form data
 * when the tasting has a photo (so that an opening kept offline keeps its photo too).
 * `keepInCellar` answers the last-bottle question. Null when it waits on the device to be sent.
 * A refused photo refuses the opening as a whole: the bottle stays closed.
 */
export async function openBottle(
  entryId: number,
  name: string,
  bottleId: number,
  tasting: TastingInput | null,
  keepInCellar: boolean | undefined,
) {
  const params = { id: entryId, bottleId };
  const label = `Open a bottle of ${name}`;
  const route = 'POST /beverages/{id}/bottles/{bottleId}/open';
  let input: CallInput<typeof route>;
  if (tasting?.photo) {
    const form = tastingForm(tasting);
    if (keepInCellar !== undefined) form.set('keepInCellar', String(keepInCellar));
    input = { params, form };
  } else {
    const json: { tasting?: TastingBody; keepInCellar?: boolean } = {};
    if (tasting) json.tasting = tasting.body;
    if (keepInCellar !== undefined) json.keepInCellar = keepInCellar;
    input = { params, json };
  }
  const sent = await sendCellarWrite(route, input, label);
  return sent.queued ? null : sent.answer;
}

/** Logs a tasting without a bottle (a form when it has a photo); null when it waits to be sent. */
export async function addTasting(entryId: number, name: string, tasting: TastingInput) {
  const params = { id: entryId };
  const label = `Taste ${name}`;
  const sent = tasting.photo
    ? await sendCellarWrite(
        'POST /beverages/{id}/tastings',
        { params, form: tastingForm(tasting) },
        label,
      )
    : await sendCellarWrite('POST /beverages/{id}/tastings', { params, json: tasting.body }, label);
  return sent.queued ? null : sent.answer.tasting;
}

export async function changeTasting(entryId: number, tastingId: number, tasting: TastingInput) {
  return (
    await call('PATCH /beverages/{id}/tastings/{tastingId}', {
      params: { id: entryId, tastingId },
      form: tastingForm(tasting),
    })
  ).tasting;
}

export async function deleteTasting(entryId: number, tastingId: number): Promise<void> {
  await call('DELETE /beverages/{id}/tastings/{tastingId}', {
    params: { id: entryId, tastingId },
  });
}

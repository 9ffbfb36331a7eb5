/**
 * What the changes kept in the offline queue (queue.ts) will be once sent, for showing them
 * where they belong meanwhile, marked as waiting: a new entry in its lists, a tasting in the
 * entry's tastings, bottles in the entry's bottles. Read from the queue itself, so they show
 * after a reload too and leave when the queue sends them (the vault's own item then takes their
 * place). Refused changes are not shown here: the header's list shows them.
 *
 * No DOM or React imports here: it is unit-tested in Node.
 */
import type { Beverage } from '../../../contract/beverages.ts';
import type { Bottle, Place } from '../../../contract/cellar.ts';
import type { Tasting } from '../../../contract/tastings.ts';
import type { BeverageStatus, BeverageType, Visibility } from '../../../contract/enums.ts';
import { DEFAULT_BOTTLE_SIZE } from '../../../contract/cellar-limits.ts';
import { today } from '../entry-cellar/days.ts';
import type { QueuedChange } from './queue-store.ts';

/** The mark beside a change kept on the device (.tag--waiting in styles.css). */
export const WAITING_MARK = 'Waiting to sync';

/** A new entry kept offline, as its card shows it. */
export interface WaitingEntry {
  /** Its place in the queue (there is no id before the vault gives one). */
  seq: number;
  name: string;
  type: BeverageType;
  subtype: string;
  status: BeverageStatus;
  rating: number;
  makerName: string;
  notes: string;
  inCellar: boolean;
}

/** The fields of a kept change's body, JSON or form, with text values as text. */
function fieldsOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

function formFields(change: QueuedChange): Record<string, unknown> {
  if (!change.form) return fieldsOf(change.json);
  const fields: Record<string, unknown> = {};
  for (const field of change.form) if ('value' in field) fields[field.name] = field.value;
  return fields;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const numberOr = <T>(value: unknown, fallback: T): number | T => {
  const parsed =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return typeof value === 'string' && value.trim() === ''
    ? fallback
    : Number.isFinite(parsed)
      ? parsed
      : fallback;
};

/** Newest first, as the lists show them. */
const newestFirst = (changes: readonly QueuedChange[]) =>
  [...changes].sort((a, b) => b.seq - a.seq);

/** A list's filter: GET /beverages's query without the paging. */
export interface WaitingFilter {
  type?: BeverageType;
  status?: BeverageStatus;
  q?: string;
  [other: string]: unknown;
}

/** The filters a list may have and still show new entries kept offline. */
const PLAIN_FILTERS = new Set(['type', 'status', 'q']);

/**
 * The new entries kept offline that belong in a list of one's own entries, by type, status and
 * text, newest first. Lists filtered otherwise (someone's profile, the cellar's windows and
 * places) show none: what the vault will make of those filters is its own to say.
 */
export function waitingEntries(
  changes: readonly QueuedChange[],
  filter: WaitingFilter,
): WaitingEntry[] {
  const other = Object.keys(filter).some(
    (key) => !PLAIN_FILTERS.has(key) && filter[key] !== undefined,
  );
  if (other) return [];
  const q = filter.q?.trim().toLowerCase();
  return newestFirst(changes)
    .filter((change) => change.route === 'POST /beverages')
    .map((change): WaitingEntry => {
      const fields = formFields(change);
      return {
        seq: change.seq,
        name: text(fields.name),
        type: text(fields.type) as BeverageType,
        subtype: text(fields.subtype),
        status: (text(fields.status) || 'TRIED') as BeverageStatus,
        rating: numberOr(fields.rating, 0),
        makerName: text(fields.makerName),
        notes: text(fields.notes),
        inCellar: text(fields.inCellar) === 'true',
      };
    })
    .filter(
      (entry) =>
        (filter.type === undefined || entry.type === filter.type) &&
        (filter.status === undefined || entry.status === filter.status) &&
        (!q ||
          `${entry.name} ${entry.subtype} ${entry.makerName} ${entry.notes}`
            .toLowerCase()
            .includes(q)),
    );
}

const entryIdOf = (change: QueuedChange) => Number(change.params?.id);

/** An entry with one kept edit's fields (the edit dialog sends them all as a form). */
function edited(entry: Beverage, fields: Record<string, unknown>): Beverage {
  const next = { ...entry };
  for (const key of ['name', 'subtype', 'makerName', 'notes'] as const) {
    if (typeof fields[key] === 'string') next[key] = fields[key];
  }
  if (typeof fields.type === 'string') next.type = fields.type as BeverageType;
  if (typeof fields.status === 'string') next.status = fields.status as BeverageStatus;
  if (typeof fields.visibility === 'string') next.visibility = fields.visibility as Visibility;
  if (fields.rating !== undefined) next.rating = numberOr(fields.rating, next.rating);
  if (fields.inCellar !== undefined) next.inCellar = text(fields.inCellar) === 'true';
  if (fields.drinkFrom !== undefined) next.drinkFrom = numberOr(fields.drinkFrom, null);
  if (fields.drinkUntil !== undefined) next.drinkUntil = numberOr(fields.drinkUntil, null);
  if (text(fields.removePhoto) === 'true') next.photoPath = null;
  return next;
}

/**
 * Entries with the edits kept offline applied, in the order they were made, and the ids of
 * those so changed (shown as waiting). Unchanged entries are the same objects.
 */
export function withWaitingEdits(
  entries: readonly Beverage[],
  changes: readonly QueuedChange[],
): { entries: Beverage[]; waitingIds: ReadonlySet<number> } {
  const edits = changes.filter((change) => change.route === 'PATCH /beverages/{id}');
  const waitingIds = new Set(edits.map(entryIdOf));
  if (waitingIds.size === 0) return { entries: [...entries], waitingIds };
  return {
    entries: entries.map((entry) =>
      waitingIds.has(entry.id)
        ? edits
            .filter((change) => entryIdOf(change) === entry.id)
            .reduce((latest, change) => edited(latest, formFields(change)), entry)
        : entry,
    ),
    waitingIds,
  };
}

/**
 * The tastings of an entry kept offline, newest first: logged on their own, or with an opened
 * bottle (`bottles` are the entry's lines, for the opened bottle's vintage). Ids are negative:
 * the vault has given none yet.
 */
export function waitingTastings(
  changes: readonly QueuedChange[],
  entryId: number,
  bottles: readonly Pick<Bottle, 'id' | 'vintage'>[] = [],
): Tasting[] {
  const tastings: Tasting[] = [];
  for (const change of newestFirst(changes)) {
    if (entryIdOf(change) !== entryId) continue;
    const opened = change.route === 'POST /beverages/{id}/bottles/{bottleId}/open';
    if (!opened && change.route !== 'POST /beverages/{id}/tastings') continue;
    let fields = formFields(change);
    if (opened && !change.form) {
      // An opening sends its tasting inside the JSON, when it has one.
      if (fields.tasting === undefined) continue;
      fields = fieldsOf(fields.tasting);
    }
    const bottleId = Number(change.params?.bottleId);
    tastings.push({
      id: -change.seq,
      beverageId: entryId,
      tastedOn: text(fields.tastedOn) || today(new Date(change.queuedAt)),
      rating: numberOr(fields.rating, null),
      notes: text(fields.notes),
      photoPath: null,
      vintage: opened ? (bottles.find((bottle) => bottle.id === bottleId)?.vintage ?? null) : null,
      opened,
      createdAt: new Date(change.queuedAt).toISOString(),
    });
  }
  return tastings;
}

/** The bottle lines added to an entry offline, in the order they were added (ids negative). */
export function waitingBottles(
  changes: readonly QueuedChange[],
  entryId: number,
  places: readonly Pick<Place, 'id' | 'path'>[] = [],
): Bottle[] {
  return changes
    .filter(
      (change) => change.route === 'POST /beverages/{id}/bottles' && entryIdOf(change) === entryId,
    )
    .map((change) => {
      const fields = fieldsOf(change.json);
      const placeId = numberOr(fields.placeId, null);
      return {
        id: -change.seq,
        beverageId: entryId,
        quantity: numberOr(fields.quantity, 1),
        sizeMl: numberOr(fields.sizeMl, DEFAULT_BOTTLE_SIZE),
        vintage: numberOr(fields.vintage, null),
        placeId,
        placePath: places.find((place) => place.id === placeId)?.path ?? [],
        purchasedOn: text(fields.purchasedOn) || null,
        price: numberOr(fields.price, null),
        currency: text(fields.currency) || null,
        note: text(fields.note),
        createdAt: new Date(change.queuedAt).toISOString(),
      };
    });
}

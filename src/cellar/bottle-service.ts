import type { Bottle, BottleCreate, BottleUpdate } from '../../contract/cellar.ts';
import type { OpenBottle } from '../../contract/tastings.ts';
import type { ActorRepository } from '../actors/repository.ts';
import type { BeverageRepository, BeverageWithOwner } from '../beverages/repository.ts';
import type { BeverageRow, BottleRow, Role, TastingRow } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, conflict, notFound } from '../domain-error.ts';
import { PHOTO, writeWithPhoto, type MediaStore } from '../media/images.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { TastingRepository } from '../tastings/repository.ts';
import type { BottleRepository, NewBottleEvent } from './bottle-repository.ts';
import type { PlaceRepository } from './place-repository.ts';
import { PLACE_NOT_FOUND } from './place-service.ts';
import { presentBottle, toMinor } from './present.ts';

export const ENTRY_NOT_FOUND = 'Beverage not found';
export const BOTTLE_NOT_FOUND = 'Bottle not found';
export const NO_BOTTLE_LEFT = 'There is no bottle left to open';
export const PRICE_NEEDS_CURRENCY = 'Give the currency of the price';

export interface BottleViewer {
  id: number;
  role: Role;
}

/**
 * Called in the transaction that writes a tasting on opening a bottle, with the tasting and its
 * entry: what else must happen with the tasting (its federation) is recorded there, so that it
 * commits, or rolls back, with the opening.
 */
export type OnTastingWritten = (tasting: TastingRow, entry: BeverageWithOwner) => Promise<void>;

/** What opening a bottle did: the bottle as it now is, and the tasting written, if any. */
export interface Opened {
  bottle: Bottle;
  tasting: TastingRow | null;
}

/**
 * The bottles of an entry (docs/cellar.md, "Bottles"): its owner's alone (anyone else, admins
 * too, is told the entry is not found). Adding bottles puts the entry in the cellar; opening one
 * takes one out and may write a tasting; opening the entry's last bottle leaves the entry in the
 * cellar unless `keepInCellar` is false. Each change writes its bottle event in its transaction,
 * and makes the entry's cached JSON be read again (its owner's `bottleCount`).
 */
export function createBottleService(deps: {
  repo: BottleRepository;
  places: PlaceRepository;
  entries: BeverageRepository;
  tastings: TastingRepository;
  actors: ActorRepository;
  outbox: Outbox;
  transaction: Transaction;
  onTastingWritten?: OnTastingWritten | undefined;
  /** Where the photo of a tasting written on opening is stored. */
  media: Pick<MediaStore, 'save' | 'remove'>;
  now: () => number;
}) {
  const { repo, places, entries, tastings, actors, outbox, transaction, now } = deps;

  /** The viewer's own entry; a 404 for anyone else's, as if it did not exist. */
  async function ownEntry(viewer: BottleViewer, beverageId: number): Promise<BeverageWithOwner> {
    const entry = await entries.findById(beverageId);
    if (!entry || entry.userId !== viewer.id) throw notFound(ENTRY_NOT_FOUND);
    return entry;
  }

  async function ownBottle(beverageId: number, bottleId: number): Promise<BottleRow> {
    const bottle = await repo.find(beverageId, bottleId);
    if (!bottle) throw notFound(BOTTLE_NOT_FOUND);
    return bottle;
  }

  async function assertOwnPlace(userId: number, placeId: number | null | undefined) {
    if (placeId != null && !(await places.find(userId, placeId))) throw notFound(PLACE_NOT_FOUND);
  }

  /** Records a change of the number of bottles; the entry's JSON is read again. */
  async function record(entry: BeverageRow, kind: NewBottleEvent['kind'], change: number) {
    await repo.recordEvent({
      userId: entry.userId,
      beverageId: entry.id,
      kind,
      change,
      at: new Date(now()),
    });
    entries.forgetJson(entry.id);
  }

  /** Puts the entry in the cellar or takes it out, as an edit of the entry would (an Update). */
  async function setInCellar(entry: BeverageRow, inCellar: boolean) {
    if (entry.inCellar === inCellar) return;
    const row = await entries.update(entry.id, { inCellar, updatedAt: new Date(now()) });
    if (!row) return;
    await outbox.record({
      actorId: await actors.localActorId(row.userId),
      type: 'Update',
      beverageId: row.id,
      createdAt: now(),
    });
  }

  const present = async (userId: number, row: BottleRow, quantity?: number) =>
    presentBottle(row, await places.listOf(userId), quantity);

  return {
    /** The entry's bottle lines, as added. */
    async list(viewer: BottleViewer, beverageId: number): Promise<Bottle[]> {
      await ownEntry(viewer, beverageId);
      const known = await places.listOf(viewer.id);
      return (await repo.listForEntry(beverageId)).map((row) => presentBottle(row, known));
    },

    /** Adds bottles to the entry, which goes into the cellar. */
    async add(viewer: BottleViewer, beverageId: number, input: BottleCreate): Promise<Bottle> {
      const row = await transaction(async () => {
        const entry = await ownEntry(viewer, beverageId);
        await assertOwnPlace(viewer.id, input.placeId);
        const at = new Date(now());
        const price = input.price ?? null;
        const added = await repo.insert({
          beverageId,
          userId: viewer.id,
          quantity: input.quantity,
          sizeMl: input.sizeMl,
          vintage: input.vintage ?? null,
          placeId: input.placeId ?? null,
          purchasedOn: input.purchasedOn ?? null,
          priceMinor: price === null ? null : toMinor(price),
          currency: price === null ? null : (input.currency ?? null),
          note: input.note ?? '',
          createdAt: at,
          updatedAt: at,
        });
        await record(entry, 'ADDED', added.quantity);
        await setInCellar(entry, true);
        return added;
      });
      return present(viewer.id, row);
    },

    /** Changes any of a bottle line's fields; a new quantity is recorded as its difference. */
    async change(
      viewer: BottleViewer,
      beverageId: number,
      bottleId: number,
      changes: BottleUpdate,
    ): Promise<Bottle> {
      const row = await transaction(async () => {
        const entry = await ownEntry(viewer, beverageId);
        const before = await ownBottle(beverageId, bottleId);
        await assertOwnPlace(viewer.id, changes.placeId);
        const priceMinor =
          changes.price === undefined
            ? before.priceMinor
            : changes.price === null
              ? null
              : toMinor(changes.price);
        const currency = changes.currency === undefined ? before.currency : changes.currency;
        if (priceMinor !== null && currency === null) throw badRequest(PRICE_NEEDS_CURRENCY);
        const { price: _price, currency: _currency, ...rest } = changes;
        const after = (await repo.update(bottleId, {
          ...rest,
          priceMinor,
          currency: priceMinor === null ? null : currency,
          updatedAt: new Date(now()),
        }))!;
        if (after.quantity !== before.quantity) {
          await record(entry, 'CHANGED', after.quantity - before.quantity);
        }
        return after;
      });
      return present(viewer.id, row);
    },

    /**
     * The entry is being deleted, its bottle lines with it (in its transaction): they are
     * recorded as taken off, so that the cellar's history (its size over time) stays true.
     */
    async entryDeleted(entry: BeverageRow): Promise<void> {
      const count = await repo.countForEntry(entry.id);
      if (count > 0) await record(entry, 'REMOVED', -count);
    },

    /** Takes a bottle line off without opening it; the entry stays in the cellar or out. */
    async remove(viewer: BottleViewer, beverageId: number, bottleId: number): Promise<void> {
      await transaction(async () => {
        const entry = await ownEntry(viewer, beverageId);
        const bottle = await ownBottle(beverageId, bottleId);
        await repo.delete(bottle.id);
        await record(entry, 'REMOVED', -bottle.quantity);
      });
    },

    /**
     * Opens one bottle of a line: one fewer (the line goes at 0), a tasting when given (its day
     * today's, UTC, unless said; the bottle's vintage), and on the entry's last bottle the
     * entry leaves the cellar if `keepInCellar` is false.
     */
    /**
     * Opens a bottle (see `open`) with a tasting that has a photo: the photo is stored first and
     * its file removed again if the opening is refused.
     */
    async openWithPhoto(
      viewer: BottleViewer,
      beverageId: number,
      bottleId: number,
      input: OpenBottle,
      photo: Uint8Array,
    ): Promise<Opened> {
      await ownEntry(viewer, beverageId); // refuse before the slow photo work
      const photoPath = await deps.media.save(photo, PHOTO);
      const withTasting = { ...input, tasting: input.tasting ?? {} };
      return writeWithPhoto(deps.media, photoPath, () =>
        this.open(viewer, beverageId, bottleId, withTasting, photoPath),
      );
    },

    async open(
      viewer: BottleViewer,
      beverageId: number,
      bottleId: number,
      input: OpenBottle,
      photoPath: string | null = null,
    ): Promise<Opened> {
      const opened = await transaction(async () => {
        const entry = await ownEntry(viewer, beverageId);
        const bottle = await ownBottle(beverageId, bottleId);
        if (bottle.quantity < 1) throw conflict(NO_BOTTLE_LEFT);
        const left = bottle.quantity - 1;
        const at = now();
        if (left === 0) await repo.delete(bottle.id);
        else await repo.update(bottle.id, { quantity: left, updatedAt: new Date(at) });
        await record(entry, 'OPENED', -1);
        if ((await repo.countForEntry(beverageId)) === 0) {
          await setInCellar(entry, input.keepInCellar ?? true);
        }
        let tasting: TastingRow | null = null;
        if (input.tasting) {
          tasting = await tastings.insert({
            beverageId,
            userId: viewer.id,
            tastedOn: input.tasting.tastedOn ?? new Date(at).toISOString().slice(0, 10),
            rating: input.tasting.rating ?? null,
            notes: input.tasting.notes ?? '',
            photoPath,
            vintage: bottle.vintage,
            opened: true,
            createdAt: new Date(at),
            updatedAt: new Date(at),
          });
          await deps.onTastingWritten?.(tasting, (await entries.findById(beverageId))!);
        }
        return { bottle, left, tasting };
      });
      return {
        bottle: await present(viewer.id, opened.bottle, opened.left),
        tasting: opened.tasting,
      };
    },
  };
}

export type BottleService = ReturnType<typeof createBottleService>;

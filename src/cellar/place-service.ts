import {
  PLACE_MAX_DEPTH,
  type Place,
  type PlaceCreate,
  type PlaceUpdate,
} from '../../contract/cellar.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, conflict, notFound } from '../domain-error.ts';
import type { BottleRepository } from './bottle-repository.ts';
import { placeOrder } from './figures.ts';
import type { PlaceRecord, PlaceRepository } from './place-repository.ts';

export const PLACE_NOT_FOUND = 'Place not found';
export const PLACE_INTO_ITSELF = 'A place cannot go inside itself or a place inside it';
export const PLACE_HAS_BOTTLES = 'Move the bottles out of this place before deleting it';
export const PLACE_TOO_DEEP = `Places can be nested at most ${PLACE_MAX_DEPTH} deep`;
export const placeNameTaken = (name: string) => `There is already a place called ${name} here`;

const bottlesText = (n: number) => `${n} ${n === 1 ? 'bottle' : 'bottles'}`;

/**
 * Why a place cannot be deleted, naming where its bottles are: 'Basement holds 6 bottles: 4 in
 * Basement, 2 in Basement › Rack A. Move them out before deleting it.' `held` is each place's
 * path and own bottles, in the cellar's order; a place holding them all itself is not repeated.
 */
export function placeHoldsBottles(
  name: string,
  held: readonly { path: readonly string[]; count: number }[],
): string {
  const total = held.reduce((sum, place) => sum + place.count, 0);
  if (total === 0) return PLACE_HAS_BOTTLES;
  const them = total === 1 ? 'it' : 'them';
  const where =
    held.length === 1 && held[0]!.path.length === 1
      ? ''
      : `: ${held.map((place) => `${place.count} in ${place.path.join(' › ')}`).join(', ')}`;
  return `${name} holds ${bottlesText(total)}${where}. Move ${them} out before deleting it.`;
}

/** Names compare without case: 'basement' and 'Basement' are one name among siblings. */
const sameName = (a: string, b: string) =>
  a.localeCompare(b, 'en', { sensitivity: 'accent' }) === 0;

/** A place and every place inside it (ids), from the user's places. */
export function placeSubtree(places: readonly PlaceRecord[], id: number): number[] {
  const ids = [id];
  for (let i = 0; i < ids.length; i++) {
    for (const place of places) if (place.parentId === ids[i]) ids.push(place.id);
  }
  return ids;
}

/** How many places deep a place is: 1 at the top. */
function depthOf(byId: Map<number, PlaceRecord>, id: number): number {
  let depth = 0;
  for (let at = byId.get(id); at && depth <= byId.size; at = byId.get(at.parentId ?? -1)) depth++;
  return depth;
}

/** How many levels a place and the places inside it span: 1 for a place with none inside. */
function heightOf(places: readonly PlaceRecord[], id: number): number {
  const below = places.filter((place) => place.parentId === id);
  return 1 + Math.max(0, ...below.map((place) => heightOf(places, place.id)));
}

/**
 * A user's places (docs/cellar.md, "Places"): nested, named uniquely among siblings, never inside
 * themselves, at most PLACE_MAX_DEPTH deep, deleted only without bottles in them or below. Each
 * change is checked and written in one transaction.
 */
export function createPlaceService(deps: {
  repo: PlaceRepository;
  bottles: BottleRepository;
  transaction: Transaction;
  now: () => number;
}) {
  const { repo, bottles, transaction, now } = deps;

  /** The last list made from the memoized places and counts, while they are the same. */
  const lists = new WeakMap<readonly PlaceRecord[], { own: unknown; list: Place[] }>();

  /** The user's places in the order of the cellar: each after its parent, siblings by name. */
  async function list(userId: number): Promise<Place[]> {
    const [places, own] = await Promise.all([repo.listOf(userId), bottles.countsByPlace(userId)]);
    const known = lists.get(places);
    if (known?.own === own) return known.list;
    const made = makeList(places, own);
    lists.set(places, { own, list: made });
    return made;
  }

  function makeList(places: readonly PlaceRecord[], own: ReadonlyMap<number, number>): Place[] {
    const order = placeOrder([...places]);
    const byId = new Map(places.map((place) => [place.id, place]));
    const total = new Map<number, number>();
    for (const [placeId, n] of own) {
      // Every place up from the one holding them counts them too.
      let steps = 0;
      for (let at = byId.get(placeId); at && steps++ <= places.length;) {
        total.set(at.id, (total.get(at.id) ?? 0) + n);
        at = at.parentId === null ? undefined : byId.get(at.parentId);
      }
    }
    return [...order].map(([id, info]) => ({
      id,
      name: byId.get(id)!.name,
      parentId: byId.get(id)!.parentId,
      path: info.path,
      bottleCount: own.get(id) ?? 0,
      totalBottleCount: total.get(id) ?? 0,
    }));
  }

  async function present(userId: number, id: number): Promise<Place> {
    return (await list(userId)).find((place) => place.id === id)!;
  }

  /** Refuses a name another place beside it has already. */
  function assertFreeName(
    places: readonly PlaceRecord[],
    parentId: number | null,
    name: string,
    id = 0,
  ) {
    const taken = places.some(
      (place) => place.id !== id && place.parentId === parentId && sameName(place.name, name),
    );
    if (taken) throw conflict(placeNameTaken(name));
  }

  /** The refusal of deleting place `id`, naming the places in `ids` that hold bottles. */
  async function holdingMessage(userId: number, id: number, ids: number[]): Promise<string> {
    const inside = new Set(ids);
    const all = await list(userId);
    const top = all.find((place) => place.id === id)!;
    const held = all
      .filter((place) => inside.has(place.id) && place.bottleCount > 0)
      .map((place) => ({
        path: place.path.slice(top.path.length - 1),
        count: place.bottleCount,
      }));
    return placeHoldsBottles(top.name, held);
  }

  return {
    list,

    /** A new place of the user's, at the top or inside one of theirs. */
    async create(userId: number, input: PlaceCreate): Promise<Place> {
      const parentId = input.parentId ?? null;
      const made = await transaction(async () => {
        const places = await repo.listOf(userId);
        const byId = new Map(places.map((place) => [place.id, place]));
        if (parentId !== null) {
          if (!byId.has(parentId)) throw notFound(PLACE_NOT_FOUND);
          if (depthOf(byId, parentId) + 1 > PLACE_MAX_DEPTH) throw badRequest(PLACE_TOO_DEEP);
        }
        assertFreeName(places, parentId, input.name);
        return repo.insert({ userId, name: input.name, parentId, createdAt: now() });
      });
      return present(userId, made.id);
    },

    /** Renames a place, or moves it into another of the user's (null: to the top), or both. */
    async update(userId: number, id: number, changes: PlaceUpdate): Promise<Place> {
      await transaction(async () => {
        const places = await repo.listOf(userId);
        const byId = new Map(places.map((place) => [place.id, place]));
        const place = byId.get(id);
        if (!place) throw notFound(PLACE_NOT_FOUND);
        const name = changes.name ?? place.name;
        const parentId = changes.parentId === undefined ? place.parentId : changes.parentId;
        if (parentId !== null && parentId !== place.parentId) {
          if (!byId.has(parentId)) throw notFound(PLACE_NOT_FOUND);
          if (placeSubtree(places, id).includes(parentId)) throw badRequest(PLACE_INTO_ITSELF);
          if (depthOf(byId, parentId) + heightOf(places, id) > PLACE_MAX_DEPTH) {
            throw badRequest(PLACE_TOO_DEEP);
          }
        }
        assertFreeName(places, parentId, name, id);
        await repo.update({ id, userId, name, parentId });
      });
      return present(userId, id);
    },

    /** Deletes a place and the empty places inside it; refused while any holds a bottle. */
    async remove(userId: number, id: number): Promise<void> {
      await transaction(async () => {
        const places = await repo.listOf(userId);
        if (!places.some((place) => place.id === id)) throw notFound(PLACE_NOT_FOUND);
        const ids = placeSubtree(places, id);
        if (await bottles.anyInPlaces(userId, ids)) {
          throw conflict(await holdingMessage(userId, id, ids));
        }
        await repo.delete(userId, ids);
      });
    },
  };
}

export type PlaceService = ReturnType<typeof createPlaceService>;

import {
  CELLAR_BOTTLES_MAX_LIMIT,
  type CellarBottle,
  type CellarBottlePage,
  type CellarBottlesQuery,
  type CellarSummary,
  type Money,
} from '../../contract/cellar.ts';
import { BEVERAGE_TYPES, type BeverageType } from '../../contract/enums.ts';
import { badRequest } from '../domain-error.ts';
import {
  NO_PLACE_RANK,
  placeOrderText,
  rankIn,
  type CellarBottleRow,
  type CellarFiguresRepository,
  type PlaceNode,
} from './figures-repository.ts';

/** How many bottle lines a page of GET /cellar/bottles holds when no limit is given. */
export const DEFAULT_BOTTLE_PAGE = 100;

/** A place's path of names from the top. */
interface PlaceInfo {
  path: string[];
}

const collator = new Intl.Collator('en', { sensitivity: 'accent' });
/** The view's order of each list of places (lists are memoized until the database changes). */
const orders = new WeakMap<PlaceNode[], { order: Map<number, PlaceInfo>; text: string }>();

/**
 * The places in the order of the view by place: each after the place it is in, siblings by
 * name (case-insensitive, then as made). A place whose parent is not the owner's is at the top.
 */
export function placeOrder(places: PlaceNode[]): Map<number, PlaceInfo> {
  const known = new Set(places.map((p) => p.id));
  const children = new Map<number | null, PlaceNode[]>();
  for (const place of places) {
    const parent = place.parentId !== null && known.has(place.parentId) ? place.parentId : null;
    const siblings = children.get(parent) ?? [];
    siblings.push(place);
    children.set(parent, siblings);
  }
  const byName = (a: PlaceNode, b: PlaceNode) => collator.compare(a.name, b.name) || a.id - b.id;
  const order = new Map<number, PlaceInfo>();
  const visit = (parent: number | null, path: string[]) => {
    for (const place of (children.get(parent) ?? []).sort(byName)) {
      if (order.has(place.id)) continue; // a cycle cannot be made; never loop on one
      const info = { path: [...path, place.name] };
      order.set(place.id, info);
      visit(place.id, info.path);
    }
  };
  visit(null, []);
  return order;
}

/** A place and every place inside it. */
function subtree(places: PlaceNode[], id: number): number[] {
  const ids = [id];
  for (let i = 0; i < ids.length; i++) {
    for (const place of places) if (place.parentId === ids[i]) ids.push(place.id);
  }
  return ids;
}

/** Where a page ends: the line's place (0: after every place), entry and line. */
function encodeCursor(row: CellarBottleRow & { rank: number }): string {
  const place = row.rank === NO_PLACE_RANK ? 0 : row.placeId;
  return Buffer.from(`${place}:${row.beverageId}:${row.id}`).toString('base64url');
}

const money = (minor: number) => Math.round(minor) / 100;

function presentBottle(row: CellarBottleRow, path: string[]): CellarBottle {
  return {
    id: row.id,
    beverageId: row.beverageId,
    quantity: row.quantity,
    sizeMl: row.sizeMl,
    vintage: row.vintage,
    placeId: row.placeId,
    placePath: path,
    purchasedOn: row.purchasedOn,
    price: row.priceMinor === null ? null : money(row.priceMinor),
    currency: row.currency,
    note: row.note,
    createdAt: new Date(row.createdAt).toISOString(),
    entry: {
      id: row.beverageId,
      name: row.entryName,
      type: row.type,
      subtype: row.subtype,
      makerName: row.makerName,
      photoPath: row.photoPath,
      drinkFrom: row.drinkFrom,
      drinkUntil: row.drinkUntil,
    },
  };
}

/**
 * The cellar read as figures and as bottles by place: the caller's own alone. An entry 'In
 * cellar' that never had bottle lines counts as one bottle in every figure, one whose bottles
 * were all opened or taken off as none; bottle lines count by their quantity whatever the
 * entry's flag. The windows are judged by the server clock's year.
 */
export function createCellarFigures(deps: { repo: CellarFiguresRepository; now: () => number }) {
  const { repo, now } = deps;
  const thisYear = () => new Date(now()).getUTCFullYear();

  return {
    /** GET /cellar. */
    async summary(userId: number): Promise<CellarSummary> {
      const year = thisYear();
      const result: CellarSummary = {
        entries: 0,
        bottles: 0,
        byType: { WHISKEY: 0, WINE: 0, BEER: 0 },
        windows: { NOW: 0, PAST: 0, LATER: 0 },
        windowsByType: {
          WHISKEY: { NOW: 0, PAST: 0, LATER: 0 },
          WINE: { NOW: 0, PAST: 0, LATER: 0 },
          BEER: { NOW: 0, PAST: 0, LATER: 0 },
        },
        entriesByWindow: { NOW: 0, PAST: 0, LATER: 0 },
        value: [],
        litres: 0,
        year,
      };
      const value: Money[] = [];
      for (const [kind, key, window, entries, n] of await repo.summary(userId, year)) {
        if (kind === 0) {
          result.entries += entries;
          result.bottles += n;
          const type = BEVERAGE_TYPES.includes(key as never) ? (key as BeverageType) : undefined;
          if (type) result.byType[type] += n;
          if (window) {
            result.windows[window] += n;
            if (type) result.windowsByType[type][window] += n;
            result.entriesByWindow[window] += entries;
          }
        } else if (kind === 1 && key) {
          value.push({ currency: key, amount: money(n) });
        } else if (kind === 2) {
          result.litres = Math.round(n / 100) / 10;
        }
      }
      result.value = value.sort(
        (a, b) => b.amount - a.amount || (a.currency < b.currency ? -1 : 1),
      );
      return result;
    },

    /** GET /cellar/bottles: a page of bottle lines by place, then entry name. */
    async bottles(userId: number, query: CellarBottlesQuery): Promise<CellarBottlePage> {
      const places = await repo.places(userId);
      let known = orders.get(places);
      if (!known) {
        const order = placeOrder(places);
        known = { order, text: placeOrderText([...order.keys()]) };
        orders.set(places, known);
      }
      const { order, text } = known;
      const limit = Math.min(query.limit ?? DEFAULT_BOTTLE_PAGE, CELLAR_BOTTLES_MAX_LIMIT);
      let inPlaces: number[] | 'none' | undefined;
      if (query.placeId === 'none') inPlaces = 'none';
      else if (query.placeId !== undefined) {
        const id = Number(query.placeId);
        // Not a place of the caller's: nothing is in it (whose it is is not told).
        if (!order.has(id)) return { bottles: [], nextCursor: null };
        inPlaces = subtree(places, id);
      }
      let after;
      if (query.cursor !== undefined) {
        const match = /^(\d{1,16}):(\d{1,16}):(\d{1,16})$/.exec(
          Buffer.from(query.cursor, 'base64url').toString(),
        );
        const placeId = Number(match?.[1]);
        const entryId = Number(match?.[2]);
        const rank = placeId === 0 ? NO_PLACE_RANK : rankIn(text, placeId);
        const name = match ? await repo.entryName(userId, entryId) : undefined;
        if (rank === undefined || name === undefined) throw badRequest('The cursor is not valid');
        after = { rank, name, entryId, bottleId: Number(match![3]) };
      }
      const rows = await repo.bottles({
        userId,
        type: query.type,
        window: query.window && { kind: query.window, year: thisYear() },
        places: inPlaces,
        order: text,
        after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        bottles: page.map((row) =>
          presentBottle(row, row.placeId === null ? [] : (order.get(row.placeId)?.path ?? [])),
        ),
        nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
      };
    },
  };
}

export type CellarFigures = ReturnType<typeof createCellarFigures>;

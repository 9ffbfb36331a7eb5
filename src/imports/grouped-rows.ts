import type { ImportedBottle, MapResult, MappedRow } from './rows.ts';

const BOTTLE_MAX_QUANTITY = 9999;

/** What makes two bottle lines the same kind of bottle (their quantities then add up). */
const lineKey = (b: ImportedBottle) =>
  JSON.stringify([b.sizeMl, b.vintage, b.place, b.purchasedOn, b.priceMinor, b.currency, b.note]);

/** Bottle lines with those of the same kind merged, in the order first met. */
export function mergeBottles(bottles: readonly ImportedBottle[]): ImportedBottle[] {
  const lines = new Map<string, ImportedBottle>();
  for (const bottle of bottles) {
    const key = lineKey(bottle);
    const line = lines.get(key);
    if (line) line.quantity = Math.min(BOTTLE_MAX_QUANTITY, line.quantity + bottle.quantity);
    else lines.set(key, { ...bottle });
  }
  return [...lines.values()];
}

/** `into` takes `row`'s bottles, and whatever `row` says more about the wine. */
function absorb(into: MappedRow, row: MappedRow): void {
  into.bottles = mergeBottles([...(into.bottles ?? []), ...(row.bottles ?? [])]);
  into.inCellar ||= row.inCellar;
  if (row.status === 'TRIED') {
    into.status = 'TRIED';
    into.rating = Math.max(into.rating, row.rating);
  }
  into.drinkFrom ??= row.drinkFrom;
  into.drinkUntil ??= row.drinkUntil;
  if (row.createdAt !== null && (into.createdAt === null || row.createdAt < into.createdAt)) {
    into.createdAt = row.createdAt;
  }
}

/**
 * One entry per group of rows with the same key (CellarTracker's Inventory: a row per bottle):
 * the first row of a group takes the bottles of the others, which become `part` rows naming it.
 * A row refused on its own stays refused; rows without a key stay as they are.
 */
export function groupRows(rows: readonly { key: string | null; result: MapResult }[]): MapResult[] {
  const firstOf = new Map<string, { index: number; row: MappedRow }>();
  return rows.map(({ key, result }, index) => {
    if (key === null || result.ok !== true) return result;
    const first = firstOf.get(key);
    if (!first) {
      const row = { ...result.row, bottles: mergeBottles(result.row.bottles ?? []) };
      firstOf.set(key, { index, row });
      return { ok: true, row };
    }
    absorb(first.row, result.row);
    return { ok: 'part', name: result.row.name, of: first.index + 1 };
  });
}

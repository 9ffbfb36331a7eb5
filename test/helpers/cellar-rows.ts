import type Database from 'better-sqlite3';

// Places, bottle lines and bottle events written straight into SQLite, for the tests of what
// reads them (the cellar's figures, the statistics), apart from the routes that write them.

export function insertPlace(
  sqlite: Database.Database,
  userId: number,
  name: string,
  parentId: number | null = null,
): number {
  return Number(
    sqlite
      .prepare(
        'INSERT INTO places (user_id, name, parent_id, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      )
      .pluck()
      .get(userId, name, parentId, Date.now()),
  );
}

export interface BottleInput {
  quantity?: number;
  sizeMl?: number;
  vintage?: number | null;
  placeId?: number | null;
  /** The price of one bottle, in minor units (cents). */
  priceMinor?: number | null;
  currency?: string | null;
  note?: string;
  createdAt?: number;
}

/** A bottle line of an entry (its owner's), without an event. */
export function insertBottle(
  sqlite: Database.Database,
  entry: { id: number; userId: number },
  input: BottleInput = {},
): number {
  const at = input.createdAt ?? Date.now();
  return Number(
    sqlite
      .prepare(
        `INSERT INTO bottles (beverage_id, user_id, quantity, size_ml, vintage, place_id,
           purchased_on, price_minor, currency, note, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .pluck()
      .get(
        entry.id,
        entry.userId,
        input.quantity ?? 1,
        input.sizeMl ?? 750,
        input.vintage ?? null,
        input.placeId ?? null,
        input.priceMinor ?? null,
        input.currency ?? null,
        input.note ?? '',
        at,
        at,
      ),
  );
}

export type BottleEventKind = 'ADDED' | 'OPENED' | 'CHANGED' | 'REMOVED';

/** What happened to a cellar's bottles, as the bottle routes record it. */
export function insertBottleEvent(
  sqlite: Database.Database,
  event: { userId: number; beverageId: number; kind: BottleEventKind; change: number; at: number },
): void {
  sqlite
    .prepare(
      'INSERT INTO bottle_events (user_id, beverage_id, kind, change, at) VALUES (?, ?, ?, ?, ?)',
    )
    .run(event.userId, event.beverageId, event.kind, event.change, event.at);
}

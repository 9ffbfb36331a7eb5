import type { Database } from '../../src/db/database.ts';

// Places, bottle lines and bottle events written straight into the database (either engine:
// callers pass `ctx.database.database`), for the tests of what reads them (the cellar's
// figures, the statistics), apart from the routes that write them.

export async function insertPlace(
  db: Database,
  userId: number,
  name: string,
  parentId: number | null = null,
): Promise<number> {
  return Number(
    await db
      .prepare(
        'INSERT INTO places (user_id, name, parent_id, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      )
      .pluck<number>()
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
export async function insertBottle(
  db: Database,
  entry: { id: number; userId: number },
  input: BottleInput = {},
): Promise<number> {
  const at = input.createdAt ?? Date.now();
  return Number(
    await db
      .prepare(
        `INSERT INTO bottles (beverage_id, user_id, quantity, size_ml, vintage, place_id,
           purchased_on, price_minor, currency, note, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .pluck<number>()
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
export async function insertBottleEvent(
  db: Database,
  event: { userId: number; beverageId: number; kind: BottleEventKind; change: number; at: number },
): Promise<void> {
  await db
    .prepare(
      'INSERT INTO bottle_events (user_id, beverage_id, kind, change, at) VALUES (?, ?, ?, ?, ?)',
    )
    .run(event.userId, event.beverageId, event.kind, event.change, event.at);
}

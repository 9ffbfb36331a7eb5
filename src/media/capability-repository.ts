import type Database from 'better-sqlite3';
import { FEDERATED_ENTRY_SQL } from '../visibility/policy.ts';

/** Data access for photo_capabilities: the only place that queries that table. */
export function createCapabilityRepository(sqlite: Database.Database) {
  const ofEntry = sqlite.prepare(
    'SELECT token, photo_path AS photoPath FROM photo_capabilities WHERE beverage_id = ?',
  );
  const upsert = sqlite.prepare(
    `INSERT INTO photo_capabilities (token, beverage_id, photo_path, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (beverage_id) DO UPDATE
       SET token = excluded.token, photo_path = excluded.photo_path, created_at = excluded.created_at`,
  );
  // A token opens the photo only while its entry still holds that very photo and still goes to
  // the fediverse (src/visibility/policy.ts).
  const openedBy = sqlite
    .prepare(
      `SELECT c.photo_path FROM photo_capabilities c
       JOIN beverages b ON b.id = c.beverage_id AND b.photo_path = c.photo_path
       WHERE c.token = ? AND ${FEDERATED_ENTRY_SQL}`,
    )
    .pluck();
  const removeOfEntry = sqlite.prepare('DELETE FROM photo_capabilities WHERE beverage_id = ?');
  // A tasting's photo: the same, through the entry it is a tasting of.
  const ofTasting = sqlite.prepare(
    'SELECT token, photo_path AS photoPath FROM tasting_photo_capabilities WHERE tasting_id = ?',
  );
  const upsertTasting = sqlite.prepare(
    `INSERT INTO tasting_photo_capabilities (token, tasting_id, photo_path, created_at)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (tasting_id) DO UPDATE
       SET token = excluded.token, photo_path = excluded.photo_path, created_at = excluded.created_at`,
  );
  const openedByTasting = sqlite
    .prepare(
      `SELECT c.photo_path FROM tasting_photo_capabilities c
       JOIN tastings t ON t.id = c.tasting_id AND t.photo_path = c.photo_path
       JOIN beverages b ON b.id = t.beverage_id
       WHERE c.token = ? AND (b.federated = 1 AND b.visibility <> 'PRIVATE')`,
    )
    .pluck();

  return {
    /** The entry's capability, if it has one. */
    ofEntry(entryId: number): { token: string; photoPath: string } | undefined {
      return ofEntry.get(entryId) as { token: string; photoPath: string } | undefined;
    },
    /** Gives the entry this token for this photo, replacing any earlier one. */
    save(entryId: number, token: string, photoPath: string, at: number): void {
      upsert.run(token, entryId, photoPath, at);
    },
    /** The stored photo ('media/…') a token opens now (an entry's or a tasting's), if any. */
    photoOpenedBy(token: string): string | undefined {
      return (openedBy.get(token) ?? openedByTasting.get(token)) as string | undefined;
    },
    /** The tasting's capability, if it has one. */
    ofTasting(tastingId: number): { token: string; photoPath: string } | undefined {
      return ofTasting.get(tastingId) as { token: string; photoPath: string } | undefined;
    },
    /** Gives the tasting this token for this photo, replacing any earlier one. */
    saveForTasting(tastingId: number, token: string, photoPath: string, at: number): void {
      upsertTasting.run(token, tastingId, photoPath, at);
    },
    removeOfEntry(entryId: number): void {
      removeOfEntry.run(entryId);
    },
  };
}

export type CapabilityRepository = ReturnType<typeof createCapabilityRepository>;

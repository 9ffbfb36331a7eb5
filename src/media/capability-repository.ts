import type { Database } from '../db/database.ts';
import { FEDERATED_ENTRY_SQL } from '../visibility/policy.ts';

/** Data access for photo_capabilities: the only place that queries that table. */
export function createCapabilityRepository(db: Database) {
  const ofEntry = db.prepare<{ token: string; photoPath: string }>(
    'SELECT token, photo_path AS photoPath FROM photo_capabilities WHERE beverage_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO photo_capabilities (token, beverage_id, photo_path, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (beverage_id) DO UPDATE
       SET token = excluded.token, photo_path = excluded.photo_path, created_at = excluded.created_at`,
  );
  // A token opens the photo only while its entry still holds that very photo and still goes to
  // the fediverse (src/visibility/policy.ts).
  const openedBy = db
    .prepare(
      `SELECT c.photo_path FROM photo_capabilities c
       JOIN beverages b ON b.id = c.beverage_id AND b.photo_path = c.photo_path
       WHERE c.token = ? AND ${FEDERATED_ENTRY_SQL}`,
    )
    .pluck<string>();
  const removeOfEntry = db.prepare('DELETE FROM photo_capabilities WHERE beverage_id = ?');
  // A tasting's photo: the same, through the entry it is a tasting of.
  const ofTasting = db.prepare<{ token: string; photoPath: string }>(
    'SELECT token, photo_path AS photoPath FROM tasting_photo_capabilities WHERE tasting_id = ?',
  );
  const upsertTasting = db.prepare(
    `INSERT INTO tasting_photo_capabilities (token, tasting_id, photo_path, created_at)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (tasting_id) DO UPDATE
       SET token = excluded.token, photo_path = excluded.photo_path, created_at = excluded.created_at`,
  );
  const openedByTasting = db
    .prepare(
      `SELECT c.photo_path FROM tasting_photo_capabilities c
       JOIN tastings t ON t.id = c.tasting_id AND t.photo_path = c.photo_path
       JOIN beverages b ON b.id = t.beverage_id
       WHERE c.token = ? AND (b.federated = 1 AND b.visibility <> 'PRIVATE')`,
    )
    .pluck<string>();

  return {
    /** The entry's capability, if it has one. */
    ofEntry(entryId: number): Promise<{ token: string; photoPath: string } | undefined> {
      return ofEntry.get(entryId);
    },
    /** Gives the entry this token for this photo, replacing any earlier one. */
    async save(entryId: number, token: string, photoPath: string, at: number): Promise<void> {
      await upsert.run(token, entryId, photoPath, at);
    },
    /** The stored photo ('media/…') a token opens now (an entry's or a tasting's), if any. */
    async photoOpenedBy(token: string): Promise<string | undefined> {
      return (await openedBy.get(token)) ?? (await openedByTasting.get(token));
    },
    /** The tasting's capability, if it has one. */
    ofTasting(tastingId: number): Promise<{ token: string; photoPath: string } | undefined> {
      return ofTasting.get(tastingId);
    },
    /** Gives the tasting this token for this photo, replacing any earlier one. */
    async saveForTasting(
      tastingId: number,
      token: string,
      photoPath: string,
      at: number,
    ): Promise<void> {
      await upsertTasting.run(token, tastingId, photoPath, at);
    },
    /**
     * The entry's token for this photo: its capability's when it has one for the same photo,
     * else `token`, saved (replacing any earlier one). Read and written in one transaction, so
     * two callers at once answer the same token.
     */
    tokenFor(entryId: number, photoPath: string, token: string, at: number): Promise<string> {
      return db.transaction(async () => {
        const current = await ofEntry.get(entryId);
        if (current && current.photoPath === photoPath) return current.token;
        await upsert.run(token, entryId, photoPath, at);
        return token;
      });
    },
    /** The same for a tasting's photo. */
    tokenForTasting(
      tastingId: number,
      photoPath: string,
      token: string,
      at: number,
    ): Promise<string> {
      return db.transaction(async () => {
        const current = await ofTasting.get(tastingId);
        if (current && current.photoPath === photoPath) return current.token;
        await upsertTasting.run(token, tastingId, photoPath, at);
        return token;
      });
    },
    async removeOfEntry(entryId: number): Promise<void> {
      await removeOfEntry.run(entryId);
    },
  };
}

export type CapabilityRepository = ReturnType<typeof createCapabilityRepository>;

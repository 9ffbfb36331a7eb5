import type { Database } from '../src/db/database.ts';

/**
 * Which generation of its Note id an entry is at. An entry that leaves the fediverse (made
 * PRIVATE, or kept out of it) has its Note deleted on remote servers, and Mastodon keeps a
 * tombstone for a deleted id and ignores a later Create with it. So each time the entry comes
 * back its Note gets a new id: generation 0 is `/users/{username}/entries/{id}`, generation n
 * is `/users/{username}/entries/{id}-{n}` (note.ts, noteUrl).
 *
 * Stored in the federation key–value table (federation_kv, kv-store.ts), under the vault's own
 * prefix and without expiry, as the instance actor's keys are: the key
 * `["vault","noteReentries","{entryId}"]` holds the ids of the outbox activities that brought the
 * entry back, in order. The generation is how many there are. Recording the activity id rather
 * than a counter makes it idempotent (an outbox row handled again after a restart counts once)
 * and independent of the order rows are handled in: an activity's Delete uses the generation of
 * the re-entries recorded before it (`before`), whatever was handled since.
 *
 * Beside it, `["vault","noteWithdrawn","{entryId}"]` records which generations' Notes were
 * withdrawn (their Delete sent) and when, so that their ids answer 410 with a Tombstone even
 * after the entry row is deleted (note-dispatcher.ts).
 *
 * It awaits only the database, so it runs inside the outbox's delivery transaction (a hand-off's
 * `job`); a change reads and writes its key in one transaction of its own (joining the caller's,
 * if any), so that two changes of one entry cannot both read the old value.
 */
export function createNoteGenerations(db: Database) {
  const select = db
    .prepare(
      `SELECT value FROM federation_kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)`,
    )
    .pluck<string>();
  const upsert = db.prepare(
    `INSERT INTO federation_kv (key, value, expires_at) VALUES (?, ?, NULL)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = NULL`,
  );

  /** The same key encoding as SqliteKvStore (the JSON of the key array of strings). */
  const keyOf = (entryId: number) => JSON.stringify(['vault', 'noteReentries', String(entryId)]);
  const withdrawnKeyOf = (entryId: number) =>
    JSON.stringify(['vault', 'noteWithdrawn', String(entryId)]);

  async function withdrawals(entryId: number): Promise<StoredWithdrawals | undefined> {
    const raw = await select.get(withdrawnKeyOf(entryId), Date.now());
    if (raw === undefined) return undefined;
    try {
      const value = JSON.parse(raw) as Partial<StoredWithdrawals> | null;
      if (typeof value?.username !== 'string' || typeof value.deletedAt !== 'object') {
        return undefined;
      }
      return { username: value.username, deletedAt: value.deletedAt ?? {} };
    } catch {
      return undefined;
    }
  }

  async function reentries(entryId: number): Promise<number[]> {
    const raw = await select.get(keyOf(entryId), Date.now());
    if (raw === undefined) return [];
    try {
      const value: unknown = JSON.parse(raw);
      return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : [];
    } catch {
      return [];
    }
  }

  return {
    /** The entry's current generation (0 until it first comes back). */
    async current(entryId: number): Promise<number> {
      return (await reentries(entryId)).length;
    },

    /** The generation in effect when activity `activityId` was recorded. */
    async before(entryId: number, activityId: number): Promise<number> {
      return (await reentries(entryId)).filter((id) => id < activityId).length;
    },

    /**
     * Activity `activityId` brought the entry back into the fediverse: its Note gets the next
     * generation. Recording the same activity twice changes nothing.
     */
    async reenter(entryId: number, activityId: number): Promise<void> {
      await db.transaction(async () => {
        const known = await reentries(entryId);
        if (known.includes(activityId)) return;
        const ids = [...known, activityId].sort((a, b) => a - b);
        await upsert.run(keyOf(entryId), JSON.stringify(ids));
      });
    },

    /**
     * The entry's Note at `generation` was withdrawn from the fediverse at `deletedAt` (its
     * Delete is being sent: the entry was deleted, made PRIVATE or kept out). From then on that
     * id answers 410 with its Tombstone (note-dispatcher.ts), even once the entry row is gone.
     * Recording the same withdrawal again keeps the first time.
     */
    async withdraw(
      entryId: number,
      note: { username: string; generation: number; deletedAt: Date },
    ): Promise<void> {
      await db.transaction(async () => {
        const known = await withdrawals(entryId);
        const deletedAt = known?.username === note.username ? known.deletedAt : {};
        if (deletedAt[note.generation] !== undefined) return;
        deletedAt[note.generation] = note.deletedAt.getTime();
        const value = JSON.stringify({ username: note.username, deletedAt });
        await upsert.run(withdrawnKeyOf(entryId), value);
      });
    },

    /** The withdrawal of the entry's Note at `generation`, if one was recorded. */
    async withdrawal(
      entryId: number,
      generation: number,
    ): Promise<{ username: string; deletedAt: Date } | undefined> {
      const known = await withdrawals(entryId);
      const at = known?.deletedAt[generation];
      return known && typeof at === 'number'
        ? { username: known.username, deletedAt: new Date(at) }
        : undefined;
    },
  };
}

/**
 * `["vault","noteWithdrawn","{entryId}"]`: whose entry it was and, for each generation whose
 * Note was withdrawn, when (ms since the epoch). A few dozen bytes an entry, kept for good as
 * Mastodon keeps its tombstones: the row of a deleted entry is gone, this is what is left.
 */
interface StoredWithdrawals {
  username: string;
  deletedAt: Record<number, number>;
}

export type NoteGenerations = ReturnType<typeof createNoteGenerations>;

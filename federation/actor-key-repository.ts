import type { webcrypto } from 'node:crypto';
import type { Database } from '../src/db/database.ts';
import { rowReader, storedValue } from '../src/db/rows.ts';
import { actorKeys, type KEY_TYPES } from '../src/db/schema/index.ts';

export type KeyType = (typeof KEY_TYPES)[number];

export interface StoredKeyPair {
  type: KeyType;
  privateKeyJwk: webcrypto.JsonWebKey;
  publicKeyJwk: webcrypto.JsonWebKey;
}

const readRow = rowReader(actorKeys);

function pairOf(row: typeof actorKeys.$inferSelect): StoredKeyPair {
  return {
    type: row.type,
    privateKeyJwk: JSON.parse(row.privateKeyJwk) as webcrypto.JsonWebKey,
    publicKeyJwk: JSON.parse(row.publicKeyJwk) as webcrypto.JsonWebKey,
  };
}

/** Data access for actor_keys: the only place that queries that table. */
export function createActorKeyRepository(db: Database) {
  const byUser = db.prepare('SELECT * FROM actor_keys WHERE user_id = ? ORDER BY type ASC');
  const insert = db.prepare(
    `INSERT INTO actor_keys (user_id, type, private_key_jwk, public_key_jwk, created_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const byUserAndType = db.prepare('SELECT * FROM actor_keys WHERE user_id = ? AND type = ?');

  return {
    /** The user's stored key pairs, by type. */
    async findByUser(userId: number): Promise<StoredKeyPair[]> {
      return (await byUser.all(userId)).map((row) => pairOf(readRow(row)));
    },
    /**
     * Stores a key pair unless the user already has one of that type (keys are never replaced),
     * and returns the pair that is stored afterwards: the existing one if there was one.
     */
    async insertIfAbsent(
      userId: number,
      pair: StoredKeyPair,
      now = new Date(),
    ): Promise<StoredKeyPair> {
      await insert.run(
        userId,
        pair.type,
        JSON.stringify(pair.privateKeyJwk),
        JSON.stringify(pair.publicKeyJwk),
        storedValue(actorKeys, 'createdAt', now),
      );
      const row = await byUserAndType.get(userId, pair.type);
      if (!row) throw new Error(`The ${pair.type} key of user ${userId} vanished after insert.`);
      return pairOf(readRow(row));
    },
  };
}

export type ActorKeyRepository = ReturnType<typeof createActorKeyRepository>;

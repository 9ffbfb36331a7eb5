import type { webcrypto } from 'node:crypto';
import { and, asc, eq } from '../src/db/orm.ts';
import type { Db } from '../src/db/client.ts';
import { actorKeys, type KEY_TYPES } from '../src/db/schema/index.ts';

export type KeyType = (typeof KEY_TYPES)[number];

export interface StoredKeyPair {
  type: KeyType;
  privateKeyJwk: webcrypto.JsonWebKey;
  publicKeyJwk: webcrypto.JsonWebKey;
}

/** Data access for actor_keys: the only place that queries that table. */
export function createActorKeyRepository(db: Db) {
  return {
    /** The user's stored key pairs, by type. */
    findByUser(userId: number): StoredKeyPair[] {
      return db
        .select()
        .from(actorKeys)
        .where(eq(actorKeys.userId, userId))
        .orderBy(asc(actorKeys.type))
        .all()
        .map((row) => ({
          type: row.type,
          privateKeyJwk: JSON.parse(row.privateKeyJwk) as webcrypto.JsonWebKey,
          publicKeyJwk: JSON.parse(row.publicKeyJwk) as webcrypto.JsonWebKey,
        }));
    },
    /**
     * Stores a key pair unless the user already has one of that type (keys are never replaced),
     * and returns the pair that is stored afterwards: the existing one if there was one.
     */
    insertIfAbsent(userId: number, pair: StoredKeyPair, now = new Date()): StoredKeyPair {
      db.insert(actorKeys)
        .values({
          userId,
          type: pair.type,
          privateKeyJwk: JSON.stringify(pair.privateKeyJwk),
          publicKeyJwk: JSON.stringify(pair.publicKeyJwk),
          createdAt: now,
        })
        .onConflictDoNothing()
        .run();
      const row = db
        .select()
        .from(actorKeys)
        .where(and(eq(actorKeys.userId, userId), eq(actorKeys.type, pair.type)))
        .get();
      if (!row) throw new Error(`The ${pair.type} key of user ${userId} vanished after insert.`);
      return {
        type: row.type,
        privateKeyJwk: JSON.parse(row.privateKeyJwk) as webcrypto.JsonWebKey,
        publicKeyJwk: JSON.parse(row.publicKeyJwk) as webcrypto.JsonWebKey,
      };
    },
  };
}

export type ActorKeyRepository = ReturnType<typeof createActorKeyRepository>;

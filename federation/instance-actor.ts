import type { webcrypto } from 'node:crypto';
import type { ActorKeyPair, KvStore, RequestContext } from '@fedify/fedify';
import { importJwk } from '@fedify/fedify';
import { Application, Endpoints } from '@fedify/vocab';
import { ACTOR_KEY_TYPES, generateKeyPair } from './keys.ts';
import type { KeyType } from './actor-key-repository.ts';
import { INSTANCE_ACTOR } from './paths.ts';

type KeyPair = webcrypto.CryptoKeyPair;

/** Where the instance actor's key pairs are stored: the federation KV store (SQLite). */
const KEYS_KEY = ['vault', 'instanceActorKeys'] as const;

interface StoredPair {
  type: KeyType;
  privateKeyJwk: webcrypto.JsonWebKey;
  publicKeyJwk: webcrypto.JsonWebKey;
}

export interface InstanceKeyStore {
  /** The instance actor's key pairs (RSA, then Ed25519), generated and stored on first need. */
  keyPairs(): Promise<KeyPair[]>;
}

export function createInstanceKeyStore(kv: KvStore, rsaKeyBits: number): InstanceKeyStore {
  let pairs: Promise<KeyPair[]> | undefined;

  async function load(): Promise<KeyPair[]> {
    let stored = await kv.get<StoredPair[]>([...KEYS_KEY]);
    if (stored === undefined) {
      const generated = await Promise.all(
        ACTOR_KEY_TYPES.map((type) => generateKeyPair(type, rsaKeyBits)),
      );
      // cas settles a race with another process: whoever stored first wins, both use its keys.
      if (kv.cas) await kv.cas([...KEYS_KEY], undefined, generated);
      else await kv.set([...KEYS_KEY], generated);
      stored = (await kv.get<StoredPair[]>([...KEYS_KEY])) ?? generated;
    }
    return Promise.all(
      stored.map(async (pair) => ({
        privateKey: await importJwk(pair.privateKeyJwk, 'private'),
        publicKey: await importJwk(pair.publicKeyJwk, 'public'),
      })),
    );
  }

  return {
    keyPairs() {
      if (!pairs) {
        pairs = load();
        pairs.catch(() => (pairs = undefined));
      }
      return pairs;
    },
  };
}

/**
 * The instance actor's document. preferredUsername is its identifier, so that Mastodon's
 * WebFinger check of a key owner (acct:instance.actor@host must lead back to the actor) passes.
 * Like Mastodon's instance actor it has an inbox and an outbox of its own; it also names its
 * followers and following collections. All four are what Fedify expects of every actor its
 * dispatcher returns (it logs a warning for each one missing, on every fetch); the collections
 * are always empty (collections.ts) and its inbox is handled as the shared inbox is.
 */
export function instanceActorFor(
  ctx: RequestContext<void>,
  keys: ActorKeyPair[],
  origin: string,
): Application {
  const rsa = (keys as (ActorKeyPair & KeyPair)[]).find(
    (key) => key.privateKey.algorithm.name === 'RSASSA-PKCS1-v1_5',
  );
  return new Application({
    id: ctx.getActorUri(INSTANCE_ACTOR),
    preferredUsername: INSTANCE_ACTOR,
    name: new URL(origin).host,
    summary: 'The server itself: it signs the requests the vault makes on no user’s behalf.',
    url: new URL(origin),
    // It follows nobody and posts nothing: its collections are empty.
    inbox: ctx.getInboxUri(INSTANCE_ACTOR),
    outbox: ctx.getOutboxUri(INSTANCE_ACTOR),
    followers: ctx.getFollowersUri(INSTANCE_ACTOR),
    following: ctx.getFollowingUri(INSTANCE_ACTOR),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: rsa?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
    discoverable: false,
    indexable: false,
    manuallyApprovesFollowers: true,
  });
}

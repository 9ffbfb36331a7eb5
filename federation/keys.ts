import type { webcrypto } from 'node:crypto';
import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { ActorKeyRepository, KeyType, StoredKeyPair } from './actor-key-repository.ts';

/**
 * The key types every actor has, in the order Fedify receives them: RSASSA-PKCS1-v1_5 first
 * (the actor's publicKey, for HTTP Signatures and Mastodon), then Ed25519 (Object Integrity
 * Proofs, FEP-8b32). Both appear among the actor's assertionMethods.
 */
type KeyPair = webcrypto.CryptoKeyPair;

export const ACTOR_KEY_TYPES: readonly KeyType[] = ['RSASSA-PKCS1-v1_5', 'Ed25519'];

export interface ActorKeyStore {
  /**
   * The user's key pairs in ACTOR_KEY_TYPES order. A missing pair is generated and stored on
   * first need; stored pairs are never replaced or rotated.
   */
  keyPairsFor(userId: number): Promise<KeyPair[]>;
}

export function createActorKeyStore(
  repository: ActorKeyRepository,
  rsaKeyBits: number,
): ActorKeyStore {
  // Imported keys per user. Caching the promise also makes concurrent first requests in this
  // process share one generation; insertIfAbsent settles races with other processes.
  const cache = new Map<number, Promise<KeyPair[]>>();

  async function load(userId: number): Promise<KeyPair[]> {
    const stored = new Map((await repository.findByUser(userId)).map((pair) => [pair.type, pair]));
    const pairs: KeyPair[] = [];
    for (const type of ACTOR_KEY_TYPES) {
      const pair =
        stored.get(type) ??
        (await repository.insertIfAbsent(userId, await generateKeyPair(type, rsaKeyBits)));
      pairs.push({
        privateKey: await importJwk(pair.privateKeyJwk, 'private'),
        publicKey: await importJwk(pair.publicKeyJwk, 'public'),
      });
    }
    return pairs;
  }

  return {
    keyPairsFor(userId) {
      let pairs = cache.get(userId);
      if (pairs === undefined) {
        pairs = load(userId);
        cache.set(userId, pairs);
        pairs.catch(() => cache.delete(userId));
      }
      return pairs;
    },
  };
}

/**
 * A new key pair of `type`, exported as JWK. RSA keys have `rsaKeyBits` bits (VAULT_RSA_KEY_BITS,
 * 4096 by default; Fedify's own generator always makes 4096, which takes a second or more);
 * public exponent 65537 and SHA-256, as Fedify makes them.
 */
export async function generateKeyPair(type: KeyType, rsaKeyBits: number): Promise<StoredKeyPair> {
  const { privateKey, publicKey } =
    type === 'RSASSA-PKCS1-v1_5'
      ? ((await crypto.subtle.generateKey(
          {
            name: 'RSASSA-PKCS1-v1_5',
            modulusLength: rsaKeyBits,
            publicExponent: new Uint8Array([1, 0, 1]),
            hash: 'SHA-256',
          },
          true,
          ['sign', 'verify'],
        )) as KeyPair)
      : await generateCryptoKeyPair(type);
  return {
    type,
    privateKeyJwk: await exportJwk(privateKey),
    publicKeyJwk: await exportJwk(publicKey),
  };
}

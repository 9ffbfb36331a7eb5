import type { IncomingMessage } from 'node:http';
import type { FakeResponse } from './fake-remote-http.ts';
import { inspectSignedRequest, verifySignature } from './http-signatures.ts';

/** What a request's signature proved. */
export interface SignatureCheck {
  verified: boolean;
  /** The key id it claimed, if it had a parsable signature. */
  keyId: string | null;
  /** The key's owner (an actor id) when verified, else ''. */
  keyOwner: string;
  /** Why it is not verified; null when it is. */
  reason: string | null;
}

interface Key {
  pem: string;
  owner: string;
}

/**
 * Verifies draft-cavage signatures as Mastodon does: the request's own checks (covered
 * headers, Date, Digest) first, then the key fetched from its key id (by `fetchDocument`, a
 * GET the fake signs) and cached; a signature the cached key does not verify fetches the key
 * again once (the sender may have rotated it).
 */
export function createSignatureVerifier(options: {
  fetchDocument(url: string): Promise<FakeResponse>;
  maxDateSkewMs?: number;
}) {
  const cache = new Map<string, Key>();

  async function fetchKey(keyId: string): Promise<Key | string> {
    let response: FakeResponse;
    try {
      response = await options.fetchDocument(keyId.split('#')[0]!);
    } catch (error) {
      return `the key could not be fetched (${(error as Error).message})`;
    }
    if (response.status !== 200) return `the key fetch answered ${response.status}`;
    let doc: Record<string, unknown>;
    try {
      doc = response.json();
    } catch {
      return 'the key document is not JSON';
    }
    // An actor with publicKey (one or several), or a key document of its own.
    const keys = [doc.publicKey ?? [], doc.publicKeyPem ? doc : []].flat() as Record<
      string,
      unknown
    >[];
    const key = keys.find((k) => k.id === keyId) ?? (keys.length === 1 ? keys[0] : undefined);
    if (!key || typeof key.publicKeyPem !== 'string') return 'no such key in the key document';
    const found = { pem: key.publicKeyPem, owner: String(key.owner ?? doc.id) };
    cache.set(keyId, found);
    return found;
  }

  async function check(req: IncomingMessage, url: URL, body?: Buffer): Promise<SignatureCheck> {
    const inspection = inspectSignedRequest(
      { method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body },
      { maxSkewMs: options.maxDateSkewMs },
    );
    if (!inspection.ok) {
      const keyId = inspection.keyId ?? null;
      return { verified: false, keyId, keyOwner: '', reason: inspection.reason };
    }
    const { signature, candidates } = inspection;
    const keyId = signature.keyId;
    const cached = cache.get(keyId);
    for (const key of cached ? [cached, null] : [null]) {
      const used = key ?? (await fetchKey(keyId));
      if (typeof used === 'string') return { verified: false, keyId, keyOwner: '', reason: used };
      if (verifySignature(signature, candidates, used.pem)) {
        return { verified: true, keyId, keyOwner: used.owner, reason: null };
      }
    }
    return { verified: false, keyId, keyOwner: '', reason: 'a signature the key does not verify' };
  }

  return { check, clearCache: () => cache.clear() };
}

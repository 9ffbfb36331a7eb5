// Fixtures of the Note tests (note.test.ts, note-reader.test.ts): a fixed entry and its author,
// and a loopback inbox that records what Fedify really delivers.
import type { webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createFederation, MemoryKvStore, type SenderKeyPair } from '@fedify/fedify';
import type { Activity } from '@fedify/vocab';
import { expect } from 'vitest';
import { entryNote, type NoteEntry, type NoteInput } from '../../federation/note.ts';
import { noteContent } from '../../federation/note-content.ts';

/** JSON-LD as loosely typed JSON, for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export const ORIGIN = 'https://vault.example';
export const NOTE_ID = `${ORIGIN}/users/alice/entries/42`;
export const ACTOR = `${ORIGIN}/users/alice`;
export const FOLLOWERS = `${ORIGIN}/users/alice/followers`;
export const GOLDEN = path.join(import.meta.dirname, 'golden');

export function entry(changes: Partial<NoteEntry> = {}): NoteEntry {
  return {
    id: 42,
    type: 'WHISKEY',
    name: 'Lagavulin 16',
    subtype: 'Scotch',
    makerName: 'Lagavulin',
    rating: 4,
    notes: 'Peat and smoke.\nA long, dry finish.',
    status: 'TRIED',
    inCellar: true,
    createdAt: new Date('2026-03-01T18:30:00Z'),
    updatedAt: new Date('2026-03-02T09:15:00Z'),
    photo: { url: `${ORIGIN}/media/shared/9f2c4e7a1b.jpg`, width: 900, height: 1200 },
    ...changes,
  };
}

export function input(
  changes: Partial<NoteEntry> = {},
  author = { username: 'alice', fullName: 'Alice Archer' },
): NoteInput {
  return { entry: entry(changes), author, origin: ORIGIN };
}

export const DELETED = {
  origin: ORIGIN,
  username: 'alice',
  entryId: 42,
  deletedAt: new Date('2026-03-03T07:00:00Z'),
};

export async function noteJson(
  changes: Partial<NoteEntry> = {},
  author?: NoteInput['author'],
): Promise<Json> {
  return (await entryNote(input(changes, author)).toJsonLd()) as Json;
}

export function contentOf(changes: Partial<NoteEntry> = {}, authorName = 'Alice Archer'): string {
  const e = entry(changes);
  return noteContent({ ...e, authorName, handle: 'alice@vault.example', profileUrl: ACTOR });
}

/** Fedify really sending: a loopback inbox records what arrives, signed by alice's keys. */
export async function startCapturingInbox() {
  const bodies: Json[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const inboxUrl = new URL(`http://127.0.0.1:${port}/inbox`);
  const rsa = (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as webcrypto.CryptoKeyPair;
  const ed = (await crypto.subtle.generateKey('Ed25519', true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const keys = [
    { keyId: new URL(`${ACTOR}#main-key`), privateKey: rsa.privateKey },
    { keyId: new URL(`${ACTOR}#ed25519-key`), privateKey: ed.privateKey },
  ] as unknown as SenderKeyPair[];

  return {
    ed25519Public: ed.publicKey,
    rsaPublic: rsa.publicKey,
    /** The JSON Fedify delivers for the activity, with its signature and proof. */
    async sent(activity: Activity): Promise<Json> {
      const federation = createFederation<void>({
        kv: new MemoryKvStore(),
        allowPrivateAddress: true,
      });
      const ctx = federation.createContext(new URL(ORIGIN), undefined);
      const before = bodies.length;
      await ctx.sendActivity(
        keys,
        { id: new URL('http://127.0.0.1/actor'), inboxId: inboxUrl },
        activity,
        { immediate: true },
      );
      expect(bodies.length).toBe(before + 1);
      return bodies[before]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type CapturingInbox = Awaited<ReturnType<typeof startCapturingInbox>>;

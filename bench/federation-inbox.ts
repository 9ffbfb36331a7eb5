// The inbox half of the federation benchmark (bench/federation.ts): signed Create(Note)
// deliveries from a remote actor a local user follows, stored as remote entries; and the time to
// store one while every delivery to one follower server hangs.
import { type KeyObject } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { signRequest } from '../test/helpers/http-signatures.ts';
import { until } from './federation-hosts.ts';
import { multipart, type Client } from './http.ts';
import { freePort } from './processes.ts';

export const INBOX_DELIVERIES = 400;
export const INBOX_CONCURRENCY = 8;
const HANGING_ENTRIES = 6;
const SILENT_SAMPLES = 10;

/** Posts signed Create(Note)s of `hostOrigin`'s poster (the i-th Note each) to the shared inbox. */
function createSender(vaultOrigin: string, hostOrigin: string, privateKey: KeyObject) {
  const actor = `${hostOrigin}/users/poster`;
  const url = `${vaultOrigin}/inbox`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: INBOX_CONCURRENCY });
  const run = Date.now();
  const body = (i: number) => {
    const note = `${actor}/statuses/${run}-${i}`;
    return JSON.stringify({
      '@context': ['https://www.w3.org/ns/activitystreams', { vault: `${hostOrigin}/ns/vault#` }],
      id: `${note}/activity`,
      type: 'Create',
      actor,
      to: [`${actor}/followers`],
      object: {
        id: note,
        type: 'Note',
        attributedTo: actor,
        to: [`${actor}/followers`],
        published: new Date().toISOString(),
        content: `<p>Bench ale ${i}</p>`,
        'vault:entryType': 'BEER',
        'vault:entryName': `Bench ale ${i}`,
        'vault:subtype': 'IPA',
        'vault:rating': 4,
        'vault:status': 'TRIED',
      },
    });
  };
  const send = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const data = body(i);
      const headers = signRequest({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/activity+json' },
        body: data,
        keyId: `${actor}#main-key`,
        privateKey,
      });
      const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(data);
    });
  return { send, close: () => agent.destroy() };
}

/** Signed deliveries to the shared inbox until every one is stored as a remote entry. */
export async function benchInbox(
  vaultOrigin: string,
  hostOrigin: string,
  privateKey: KeyObject,
  dataDir: string,
) {
  const { send, close } = createSender(vaultOrigin, hostOrigin, privateKey);
  const db = new Database(path.join(dataDir, 'vault.sqlite'), { readonly: true });
  const stored = db.prepare('SELECT count(*) FROM remote_entries').pluck();
  const base = stored.get() as number;
  // One delivery first: the vault fetches and caches the poster's key.
  await send(-1);
  await until('first inbox delivery', () => (stored.get() as number) > base, 30_000);
  const first = stored.get() as number;
  const started = performance.now();
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: INBOX_CONCURRENCY }, async () => {
      while (next < INBOX_DELIVERIES) {
        const status = await send(next++);
        if (status !== 202) refused++;
      }
    }),
  );
  const acceptedMs = performance.now() - started;
  const allStored = await until(
    'inbox processing',
    () => (stored.get() as number) >= first + INBOX_DELIVERIES,
    60_000,
  );
  const storedMs = performance.now() - started;
  db.close();
  close();
  if (refused > 0) console.log(`  (${refused} deliveries refused)`);
  return {
    accepted: (INBOX_DELIVERIES / acceptedMs) * 1000,
    processed: (INBOX_DELIVERIES / storedMs) * 1000,
    allStored: allStored && refused === 0,
  };
}

/** A follower server that accepts connections, reads what arrives and never answers. */
export async function startSilentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.resume();
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    /** Connections open now (deliveries hanging). */
    open: () => sockets.size,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `neighbour` (whose one follower is on the silent server) logs 6 entries, so 6 deliveries hang;
 * then signed Creates from the poster, one at a time: the time from each 202 until it is stored.
 */
export async function benchSilentFollower(options: {
  vaultOrigin: string;
  hostOrigin: string;
  privateKey: KeyObject;
  dataDir: string;
  neighbour: Client;
  silent: Awaited<ReturnType<typeof startSilentServer>>;
}) {
  const { send, close } = createSender(options.vaultOrigin, options.hostOrigin, options.privateKey);
  const db = new Database(path.join(options.dataDir, 'vault.sqlite'), { readonly: true });
  const stored = db.prepare('SELECT count(*) FROM remote_entries').pluck();
  for (let i = 0; i < HANGING_ENTRIES; i++) {
    const data = multipart({ name: `Unanswered pour ${i}`, type: 'BEER' });
    const res = await options.neighbour.send('POST', '/api/beverages', data);
    if (res.status !== 201) throw new Error(`POST /api/beverages: ${res.status}`);
  }
  await until('deliveries reaching the silent server', () => options.silent.open() > 0, 30_000);
  const samples: number[] = [];
  let allStored = true;
  for (let i = 0; i < SILENT_SAMPLES; i++) {
    const before = stored.get() as number;
    const status = await send(100_000 + i);
    const answered = performance.now();
    if (status !== 202) throw new Error(`inbox answered ${status}`);
    allStored &&= await until('store', () => (stored.get() as number) > before, 30_000);
    samples.push(performance.now() - answered);
  }
  const hanging = options.silent.open();
  db.close();
  close();
  return { samples, allStored, hanging };
}

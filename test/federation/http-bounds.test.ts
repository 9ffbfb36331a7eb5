import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Create, Note } from '@fedify/vocab';
import { getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_BOUNDS, withDeliveryBounds } from '../../federation/http-bounds.ts';
import { AP, startBareFederation } from './plumbing-remote.ts';

// Fedify's own requests (here: the key fetch that verifying a delivery needs) get the process's
// HTTP bounds: a server that never answers, or sends far too much, cannot hold them. Deliveries
// get shorter ones.

type Bare = Awaited<ReturnType<typeof startBareFederation>>;
let vault: Bare;
let silent: net.Server;
let flood: http.Server;
let silentOrigin: string;
let floodOrigin: string;
const sockets = new Set<net.Socket>();
/** When each connection to the silent server was opened and when the vault gave it up. */
const silentConnections: { opened: number; closed?: number }[] = [];

async function listen(server: net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The process's fetch bounds before this file shortened them: restored after it, since the
 * test files that run next in this worker (isolate: false) fetch through the same dispatcher.
 */
let dispatcher: Dispatcher;

beforeAll(async () => {
  dispatcher = getGlobalDispatcher();
  // Accepts connections and never says a word.
  silent = net.createServer((socket) => {
    sockets.add(socket);
    const connection: { opened: number; closed?: number } = { opened: performance.now() };
    silentConnections.push(connection);
    socket.on('close', () => (connection.closed = performance.now()));
    socket.resume();
  });
  // Answers every GET with 2 MB of JSON-looking bytes.
  flood = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': AP, 'content-length': String(2 * 1024 * 1024) });
    res.end(Buffer.alloc(2 * 1024 * 1024, 0x20));
  });
  silentOrigin = await listen(silent);
  floodOrigin = await listen(flood);
  vault = await startBareFederation({
    httpBounds: {
      connectTimeoutMs: 1000,
      headersTimeoutMs: 500,
      bodyTimeoutMs: 500,
      maxResponseBytes: 64 * 1024,
      // Longer than the others here (shorter by default), so that a request that waited for it
      // can only have had the delivery bound: timers never fire early, however busy the machine.
      deliveryConnectTimeoutMs: 1000,
      deliveryAnswerTimeoutMs: 1_500,
    },
  });
  vault.startQueue();
});
afterAll(async () => {
  setGlobalDispatcher(dispatcher);
  await vault.close();
  for (const socket of sockets) socket.destroy();
  silent.close();
  flood.close();
});

/** A Follow for alice signed (badly) with a key at `origin`: Fedify must fetch the key first. */
function delivery(origin: string): Request {
  const actor = `${origin}/users/bob`;
  const body = JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${actor}/follows/1`,
    type: 'Follow',
    actor,
    object: `${vault.origin}/users/alice`,
  });
  return new Request(`${vault.origin}/inbox`, {
    method: 'POST',
    headers: {
      'content-type': AP,
      date: new Date().toUTCString(),
      host: new URL(vault.origin).host,
      digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
      signature: `keyId="${actor}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"`,
    },
    body,
  });
}

describe("Fedify's outbound requests", () => {
  it('are bounded by default: 10 s to connect, 15 s to the headers or between body parts, 16 MB; deliveries 5 s to connect, 10 s to answer', () => {
    expect(HTTP_BOUNDS).toEqual({
      connectTimeoutMs: 10_000,
      headersTimeoutMs: 15_000,
      bodyTimeoutMs: 15_000,
      maxResponseBytes: 16 * 1024 * 1024,
      deliveryConnectTimeoutMs: 5_000,
      deliveryAnswerTimeoutMs: 10_000,
    });
  });

  it('give up on a key server that never answers: the delivery is refused within the bound', async () => {
    const started = performance.now();
    const res = await vault.fetch(delivery(silentOrigin));
    expect(res.status).toBe(401);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(sockets.size).toBeGreaterThan(0); // the key fetch did reach it
  });

  it('apply to every fetch of the process: silence and size end it', async () => {
    const started = performance.now();
    await expect(fetch(`${silentOrigin}/anything`)).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(5_000);
    const big = fetch(`${floodOrigin}/anything`).then((res) => res.arrayBuffer());
    await expect(big).rejects.toThrow();
  });

  it('have bounds of their own inside withDeliveryBounds', async () => {
    const started = performance.now();
    await expect(withDeliveryBounds(() => fetch(`${silentOrigin}/inbox`))).rejects.toThrow();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1_400);
    expect(waited).toBeLessThan(5_000);
  });

  it("apply the delivery bound to Fedify's delivery workers", async () => {
    const ctx = vault.context();
    const before = silentConnections.length;
    const actor = ctx.getActorUri('alice');
    const id = new URL(`${vault.origin}/users/alice/notes/1`);
    await ctx.sendActivity(
      { identifier: 'alice' },
      { id: new URL(`${silentOrigin}/users/bob`), inboxId: new URL(`${silentOrigin}/inbox`) },
      new Create({
        id: new URL(`${id.href}#create`),
        actor,
        object: new Note({ id, attribution: actor, content: 'A dram' }),
      }),
    );
    const deadline = performance.now() + 15_000;
    while (silentConnections[before]?.closed === undefined && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const connection = silentConnections[before]!;
    // Given up after the delivery bound (1.5 s), not the fetch bound (0.5 s).
    expect(connection.closed! - connection.opened).toBeGreaterThanOrEqual(1_400);
    expect(connection.closed! - connection.opened).toBeLessThan(5_000);
  });
});

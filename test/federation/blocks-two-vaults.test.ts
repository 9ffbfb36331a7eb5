import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockAnswerSchema } from '../../contract/blocks.ts';
import { followingListSchema, lookupAnswerSchema } from '../../contract/follows.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { login } from './inbox-entries-world.ts';

/**
 * Two real vaults on loopback ports: bob on B follows alice on A, each lookup telling that the
 * other side is a vault (A's NodeInfo). Alice blocks bob: A sends its Block, B keeps it, bob's
 * follow of her is gone and he cannot follow her again; she unblocks: A's Undo(Block) lifts it
 * on B and he can.
 */

let a: TestServer;
let b: TestServer;
let alice: string;
let bob: string;
let aliceUri: string;
let bobUri: string;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  await a.createUser({ username: 'alice', password: 'alice-password', activityPubEnabled: true });
  await b.createUser({ username: 'bob', password: 'bob-password', activityPubEnabled: true });
  [alice, bob] = await Promise.all([
    login(a, 'alice', 'alice-password'),
    login(b, 'bob', 'bob-password'),
  ]);
  aliceUri = `${a.url}/users/alice`;
  bobUri = `${b.url}/users/bob`;
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const send = (site: TestServer, cookie: string, method: string, path: string, body?: unknown) =>
  fetch(`${site.url}/api${path}`, {
    method,
    headers: { cookie, origin: site.url, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Bob's follow of alice, as B lists it ('NONE' when there is none). */
async function bobsFollow() {
  const res = await send(b, bob, 'GET', '/users/following');
  const row = followingListSchema
    .parse(await res.json())
    .remote.find((r) => r.actorUri === aliceUri);
  return row?.state ?? 'NONE';
}

const receivedOnB = () =>
  b.ctx.database.database.prepare('SELECT count(*) FROM received_blocks').pluck().get();

describe('a block between two vaults', () => {
  let blockId: number;

  it('starts with bob following alice, his lookup saying she is on a vault', async () => {
    const res = await send(b, bob, 'POST', '/users/lookup', { query: aliceUri });
    expect(res.status).toBe(200);
    expect(lookupAnswerSchema.parse(await res.json()).actor.vault).toBe(true);
    const followed = await send(b, bob, 'POST', '/users/remote-follows', { actorUri: aliceUri });
    expect(followed.status).toBe(201);
    await expect.poll(bobsFollow, { timeout: 20_000 }).toBe('ACCEPTED');
  });

  it("is kept on bob's vault when alice blocks him: his follow ends and he cannot follow again", async () => {
    const res = await send(a, alice, 'POST', '/users/blocks', { actorUri: bobUri });
    expect(res.status).toBe(201);
    blockId = blockAnswerSchema.parse(await res.json()).block.id;
    await expect.poll(receivedOnB, { timeout: 20_000 }).toBe(1);
    await expect.poll(bobsFollow, { timeout: 20_000 }).toBe('NONE');
    const again = await send(b, bob, 'POST', '/users/remote-follows', { actorUri: aliceUri });
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({ message: 'You cannot follow this user.' });
  });

  it('is lifted on his vault when she unblocks him: he may follow her again', async () => {
    const res = await send(a, alice, 'DELETE', `/users/blocks/${blockId}`);
    expect(res.status).toBe(204);
    await expect.poll(receivedOnB, { timeout: 20_000 }).toBe(0);
    const again = await send(b, bob, 'POST', '/users/remote-follows', { actorUri: aliceUri });
    expect(again.status).toBe(201);
    await expect.poll(bobsFollow, { timeout: 20_000 }).toBe('ACCEPTED');
  });
});

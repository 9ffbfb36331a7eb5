import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import type { Delivery } from '../helpers/fake-remote-records.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * A withdrawn Note's id (federation/note-dispatcher.ts, goneNoteResponse): once its Delete has
 * been sent (the entry deleted, made PRIVATE or kept out of the fediverse) the id answers a
 * follower's signed GET with 410 Gone and a Tombstone that says when, as an earlier
 * generation's id does; everyone else still gets the 404 of an id that never existed.
 */

let vault: TestServer;
let remote: FakeRemote;
/** A server where nobody follows ivy. */
let elsewhere: FakeRemote;
let ivy: { id: number; role: 'USER' };

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const i = await vault.createUser({
    username: 'ivy',
    password: 'ivy-password',
    activityPubEnabled: true,
  });
  ivy = { id: i.id, role: 'USER' };
  [remote, elsewhere] = await Promise.all([startFakeRemote(), startFakeRemote()]);
  remote.addAccount('fan');
  elsewhere.addAccount('stranger');
  await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(i.id),
    remote,
    'fan',
  );
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close(), elsewhere?.close()]);
});

/**
 * A signed GET as the fake's account `name`, allowed 30 s: the first one loads Fedify and
 * makes the instance actor's keys, which takes seconds on a busy machine.
 */
function signedGet(name: string, url: string, from: FakeRemote = remote) {
  const request = { method: 'GET', url, headers: { accept: 'application/activity+json' } };
  return from.send({ ...request, headers: from.sign(name, request), timeoutMs: 30_000 });
}

const noteOf = (entryId: number) => `${vault.url}/users/ivy/entries/${entryId}`;
const ofType = (type: string, objectId: string) => (d: Delivery) => {
  const activity = d.activity as { type?: string; object?: { id?: string } };
  return activity.type === type && activity.object?.id === objectId;
};

async function published(name: string): Promise<{ id: number; noteId: string }> {
  const entry = await vault.ctx.beverages.create(ivy, { type: 'BEER', name });
  const noteId = noteOf(entry.id);
  await remote.waitForDelivery(ofType('Create', noteId), 30_000);
  return { id: entry.id, noteId };
}

/**
 * The follower gets 410 with the Tombstone; an unsigned GET and a stranger (on a server with no
 * follower of ivy) get 404.
 */
async function expectGone(noteId: string, deletedAfter: number) {
  const res = await signedGet('fan', noteId);
  expect(res.status).toBe(410);
  expect(res.headers['content-type']).toContain('application/activity+json');
  const tombstone = res.json<{ deleted: string }>();
  expect(tombstone).toMatchObject({ id: noteId, type: 'Tombstone', formerType: 'as:Note' });
  expect(Date.parse(tombstone.deleted)).toBeGreaterThanOrEqual(deletedAfter - 1000);
  expect(Date.parse(tombstone.deleted)).toBeLessThanOrEqual(Date.now());
  expect((await signedGet('stranger', noteId, elsewhere)).status).toBe(404);
  const unsigned = await fetch(noteId, { headers: { accept: 'application/activity+json' } });
  expect(unsigned.status).toBe(404);
}

describe('the id of a withdrawn Note', () => {
  it('answers 410 with a Tombstone once the entry is deleted', async () => {
    const { id, noteId } = await published('Gone Gose');
    const before = Date.now();
    await vault.ctx.beverages.remove(ivy, id);
    await remote.waitForDelivery(ofType('Delete', noteId), 30_000);
    await expectGone(noteId, before);
    // A generation it never had is still 404.
    expect((await signedGet('fan', `${noteId}-1`)).status).toBe(404);
  });

  it('answers 410 with a Tombstone while the entry is PRIVATE, and again for that id once it is back', async () => {
    const { id, noteId } = await published('Hidden Helles');
    const before = Date.now();
    await vault.ctx.beverages.update(ivy, id, { visibility: 'PRIVATE' });
    await remote.waitForDelivery(ofType('Delete', noteId), 30_000);
    await expectGone(noteId, before);
    await vault.ctx.beverages.update(ivy, id, { visibility: 'MEMBERS' });
    await remote.waitForDelivery(ofType('Create', `${noteId}-1`), 30_000);
    expect((await signedGet('fan', `${noteId}-1`)).status).toBe(200);
    // The earlier generation's Tombstone says when it left, like any other.
    await expectGone(noteId, before);
  });

  it('is 404 for an id that never existed', async () => {
    expect((await signedGet('fan', noteOf(987_654))).status).toBe(404);
  });
});

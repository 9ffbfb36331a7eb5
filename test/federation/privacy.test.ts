import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import type { Delivery } from '../helpers/fake-remote-records.ts';
import { jpeg } from '../helpers/images.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * Per-entry privacy in the fediverse (src/visibility/policy.ts): a PRIVATE entry, or one its
 * owner keeps out of the fediverse, is never sent, listed in the outbox nor dereferenced; a
 * change of visibility reaches the remote followers as an Update (still federated), a Delete
 * (no longer) or a Create (federated again) under a new Note id, the old one answering 410.
 */

let vault: TestServer;
let remote: FakeRemote;
let erin: { id: number; role: 'USER' };
let erinId: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const e = await vault.createUser({
    username: 'erin',
    password: 'erin-password',
    fullName: 'Erin Eider',
    activityPubEnabled: true,
  });
  erin = { id: e.id, role: 'USER' };
  erinId = `${vault.url}/users/erin`;
  remote = await startFakeRemote();
  remote.addAccount('fan');
  await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(e.id),
    remote,
    'fan',
  );
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

const ofType = (type: string, objectId: string) => (d: Delivery) => {
  const activity = d.activity as { type?: string; object?: { id?: string } };
  return activity.type === type && activity.object?.id === objectId;
};
const noteOf = (entryId: number) => `${erinId}/entries/${entryId}`;

/** Lets every pending delivery go out, then a little longer for anything unexpected. */
async function settle() {
  await vault.ctx.outbox.idle();
  await new Promise((resolve) => setTimeout(resolve, 400));
}

async function outboxIds(): Promise<{ total: number; ids: string[] }> {
  const outbox = `${erinId}/outbox`;
  const collection = (await remote.signedGet('fan', outbox)).json() as {
    totalItems: number;
    first: string;
  };
  const first = (await remote.signedGet('fan', collection.first)).json() as {
    orderedItems?: { object: { id: string } }[];
  };
  return {
    total: collection.totalItems,
    ids: (first.orderedItems ?? []).map((item) => item.object.id),
  };
}

describe('a PRIVATE entry and one kept out of the fediverse', () => {
  it('are never sent, listed in the outbox or dereferenced, and do not count in NodeInfo', async () => {
    const before = (await outboxIds()).total;
    const secret = await vault.ctx.beverages.create(erin, {
      type: 'WINE',
      name: 'Secret Riesling',
      visibility: 'PRIVATE',
    });
    const local = await vault.ctx.beverages.create(erin, {
      type: 'WINE',
      name: 'Local Riesling',
      visibility: 'MEMBERS',
      federated: false,
    });
    const shared = await vault.ctx.beverages.create(erin, { type: 'WINE', name: 'Open Riesling' });
    await remote.waitForDelivery(ofType('Create', noteOf(shared.id)), 10_000);
    await settle();
    for (const entry of [secret, local]) {
      expect(JSON.stringify(remote.deliveries)).not.toContain(noteOf(entry.id));
      expect((await remote.signedGet('fan', noteOf(entry.id))).status).toBe(404);
    }
    expect((await remote.signedGet('fan', noteOf(shared.id))).status).toBe(200);
    const outbox = await outboxIds();
    expect(outbox.total).toBe(before + 1);
    expect(outbox.ids).toContain(noteOf(shared.id));
    expect(outbox.ids).not.toContain(noteOf(secret.id));
    expect(outbox.ids).not.toContain(noteOf(local.id));
    const info = (await (await fetch(`${vault.url}/nodeinfo/2.1`)).json()) as {
      usage: { localPosts: number };
    };
    expect(info.usage.localPosts).toBe(outbox.total);
  });
});

describe('deleting an entry that is not in the fediverse', () => {
  it('sends no Delete for a PRIVATE entry, one kept out of it, or one whose Delete went when it left', async () => {
    const secret = await vault.ctx.beverages.create(erin, {
      type: 'WINE',
      name: 'Secret Sekt',
      visibility: 'PRIVATE',
    });
    const local = await vault.ctx.beverages.create(erin, {
      type: 'WINE',
      name: 'Local Sekt',
      federated: false,
    });
    const left = await vault.ctx.beverages.create(erin, { type: 'WINE', name: 'Leaving Riesling' });
    await remote.waitForDelivery(ofType('Create', noteOf(left.id)), 10_000);
    await vault.ctx.beverages.update(erin, left.id, { visibility: 'PRIVATE' });
    await remote.waitForDelivery(ofType('Delete', noteOf(left.id)), 10_000);
    for (const entry of [secret, local, left]) await vault.ctx.beverages.remove(erin, entry.id);
    // A federated entry deleted last: its Delete is queued after theirs would have been.
    const last = await vault.ctx.beverages.create(erin, { type: 'WINE', name: 'Last Riesling' });
    await remote.waitForDelivery(ofType('Create', noteOf(last.id)), 10_000);
    await vault.ctx.beverages.remove(erin, last.id);
    await remote.waitForDelivery(ofType('Delete', noteOf(last.id)), 10_000);
    await settle();
    const deliveries = JSON.stringify(remote.deliveries);
    expect(deliveries).not.toContain(noteOf(secret.id));
    expect(deliveries).not.toContain(noteOf(local.id));
    expect(remote.deliveries.filter(ofType('Delete', noteOf(left.id)))).toHaveLength(1);
  });
});

describe('changing the visibility of a federated entry', () => {
  it('sends a Delete when it becomes PRIVATE (its photo URL stops answering), and a Create with a new Note id when it comes back', async () => {
    const entry = await vault.ctx.beverages.create(
      erin,
      { type: 'WHISKEY', name: 'Talisker 10' },
      await jpeg(320, 240),
    );
    const noteId = noteOf(entry.id);
    const created = await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    const photoUrl = (created.activity as { object: { attachment: { url: string }[] } }).object
      .attachment[0]!.url;
    expect((await fetch(photoUrl)).status).toBe(200);

    await vault.ctx.beverages.update(erin, entry.id, { visibility: 'PRIVATE' });
    const deleted = await remote.waitForDelivery(ofType('Delete', noteId), 10_000);
    expect(deleted.activity).toMatchObject({
      actor: erinId,
      object: { type: 'Tombstone', id: noteId },
    });
    expect((await fetch(photoUrl)).status).toBe(404);
    // Withdrawn: 410 with its Tombstone for the follower (note-tombstones.test.ts).
    expect((await remote.signedGet('fan', noteId)).status).toBe(410);
    expect((await outboxIds()).ids).not.toContain(noteId);

    await vault.ctx.beverages.update(erin, entry.id, { visibility: 'FOLLOWERS' });
    // Back with a new Note id: Mastodon keeps a tombstone for the old one and would ignore it.
    const newId = `${noteId}-1`;
    const recreated = await remote.waitForDelivery(ofType('Create', newId), 10_000);
    expect(recreated.activity).toMatchObject({ id: `${newId}#create`, actor: erinId });
    expect(remote.deliveries.indexOf(deleted)).toBeLessThan(remote.deliveries.indexOf(recreated));
    expect(remote.deliveries.filter(ofType('Create', noteId))).toHaveLength(1);
    expect((await remote.signedGet('fan', newId)).status).toBe(200);
    expect((await outboxIds()).ids).toContain(newId);
    expect((await outboxIds()).ids).not.toContain(noteId);
    // The old id is gone (410 with its Tombstone) for a follower, and still 404 for others.
    const old = await remote.signedGet('fan', noteId);
    expect(old.status).toBe(410);
    expect(old.json()).toMatchObject({ id: noteId, type: 'Tombstone' });
    const unsigned = await fetch(noteId, { headers: { accept: 'application/activity+json' } });
    expect(unsigned.status).toBe(404);
    expect((await remote.signedGet('fan', `${noteId}-2`)).status).toBe(404);
    expect((await remote.signedGet('fan', `${noteId}-0`)).status).toBe(404);

    // From then on, an edit and a deletion name the new id.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await vault.ctx.beverages.update(erin, entry.id, { notes: 'Back again' });
    const edited = await remote.waitForDelivery(ofType('Update', newId), 10_000);
    expect(JSON.stringify(edited.activity)).not.toContain(`"${noteId}"`);
    await vault.ctx.beverages.remove(erin, entry.id);
    await remote.waitForDelivery(ofType('Delete', newId), 10_000);
    expect(remote.deliveries.filter(ofType('Delete', noteId))).toHaveLength(1);
  });

  it('gives the Note a new id each time the entry comes back, also when a change of many brings it back', async () => {
    const entry = await vault.ctx.beverages.create(erin, { type: 'WINE', name: 'Round Trip Rosé' });
    const noteId = noteOf(entry.id);
    await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    const change = (input: { visibility: 'PRIVATE' | 'MEMBERS'; federated?: boolean }) =>
      vault.ctx.beverages.changeVisibility(erin.id, { ids: [entry.id] }, input);
    expect(await change({ visibility: 'MEMBERS', federated: false })).toBe(1);
    await remote.waitForDelivery(ofType('Delete', noteId), 10_000);
    expect(await change({ visibility: 'MEMBERS', federated: true })).toBe(1);
    await remote.waitForDelivery(ofType('Create', `${noteId}-1`), 10_000);
    expect(await change({ visibility: 'PRIVATE' })).toBe(1);
    await remote.waitForDelivery(ofType('Delete', `${noteId}-1`), 10_000);
    expect(await change({ visibility: 'MEMBERS' })).toBe(1);
    await remote.waitForDelivery(ofType('Create', `${noteId}-2`), 10_000);
    expect((await remote.signedGet('fan', `${noteId}-2`)).status).toBe(200);
    for (const gone of [noteId, `${noteId}-1`]) {
      expect((await remote.signedGet('fan', gone)).status).toBe(410);
    }
  });

  it('sends an Update while it stays federated, and a Delete when its owner keeps it out of the fediverse', async () => {
    const entry = await vault.ctx.beverages.create(erin, {
      type: 'BEER',
      name: 'Followers Porter',
      visibility: 'FOLLOWERS',
    });
    const noteId = noteOf(entry.id);
    await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await vault.ctx.beverages.update(erin, entry.id, { visibility: 'MEMBERS' });
    await remote.waitForDelivery(ofType('Update', noteId), 10_000);
    await vault.ctx.beverages.update(erin, entry.id, { federated: false });
    await remote.waitForDelivery(ofType('Delete', noteId), 10_000);
    expect(await vault.ctx.beverages.get(entry.id)).toMatchObject({
      visibility: 'MEMBERS',
      federated: false,
    });
    // An edit while it is out of the fediverse sends nothing.
    await vault.ctx.beverages.update(erin, entry.id, { notes: 'Quietly better' });
    await settle();
    expect(remote.deliveries.filter(ofType('Update', noteId))).toHaveLength(1);
  });

  it('sends a Delete for each federated entry a change of many makes PRIVATE, and nothing for the others', async () => {
    const open = await vault.ctx.beverages.create(erin, { type: 'BEER', name: 'Bulk Open' });
    const closed = await vault.ctx.beverages.create(erin, {
      type: 'BEER',
      name: 'Bulk Closed',
      visibility: 'PRIVATE',
    });
    await remote.waitForDelivery(ofType('Create', noteOf(open.id)), 10_000);
    const updated = await vault.ctx.beverages.changeVisibility(
      erin.id,
      { ids: [open.id, closed.id] },
      { visibility: 'PRIVATE' },
    );
    expect(updated).toBe(1);
    await remote.waitForDelivery(ofType('Delete', noteOf(open.id)), 10_000);
    await settle();
    expect(JSON.stringify(remote.deliveries)).not.toContain(noteOf(closed.id));
  });
});

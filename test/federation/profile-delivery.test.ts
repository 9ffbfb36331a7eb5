import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_JSON, PUBLIC, startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import type { Delivery } from '../helpers/fake-remote-records.ts';
import { jpeg } from '../helpers/images.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * What a remote server shows of a user (name, bio, avatar, 'Approve followers') follows her
 * changes: two accounts of a fake Mastodon-shaped server follow alice, and each change of those
 * reaches that server once, at its shared inbox, as an Update(Person) signed by alice whose
 * object is her actor document as /users/alice serves it; so do an admin's edit of her name and
 * a change made while she did not federate, once she does again. A change of nothing a remote server
 * shows sends nothing, and neither does bob's change, who has no remote follower (a request he
 * has not answered is not one).
 */

let vault: TestServer;
let remote: FakeRemote;
let aliceId: number;
let aliceUri: string;
let bobId: number;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const alice = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    fullName: 'Alice Archer',
    activityPubEnabled: true,
  });
  const bob = await vault.createUser({
    username: 'bob',
    password: 'bob-password',
    fullName: 'Bob Baker',
    activityPubEnabled: true,
  });
  aliceId = alice.id;
  bobId = bob.id;
  aliceUri = `${vault.url}/users/alice`;
  remote = await startFakeRemote();
  remote.addAccount('fan');
  remote.addAccount('friend');
  const db = vault.ctx.database.database;
  const aliceActor = await vault.ctx.actors.localActorId(alice.id);
  await insertRemoteFollower(db, aliceActor, remote, 'fan');
  await insertRemoteFollower(db, aliceActor, remote, 'friend');
  const bobActor = await vault.ctx.actors.localActorId(bob.id);
  const asker = await insertRemoteFollower(db, bobActor, remote, 'fan');
  await db
    .prepare(`UPDATE follows SET state = 'PENDING' WHERE follower_id = ? AND followed_id = ?`)
    .run(asker, bobActor);
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

type Json = Record<string, unknown>;

const updatesOf = (actorUri: string) =>
  remote.deliveries.filter((d) => {
    const activity = d.activity as { type?: string; object?: { id?: string } };
    return activity.type === 'Update' && activity.object?.id === actorUri;
  });

/** Changes alice's profile and answers the one Update(Person) it sends, once it arrived. */
function changeAlice(
  changes: Parameters<TestServer['ctx']['profiles']['update']>[1],
  avatar?: Parameters<TestServer['ctx']['profiles']['update']>[2],
): Promise<Delivery> {
  return sentAfter(async () =>
    vault.ctx.profiles.update((await vault.ctx.users.findById(aliceId))!, changes, avatar),
  );
}

/** Makes a change of alice and answers the one Update(Person) it sends, once it arrived. */
async function sentAfter(change: () => Promise<unknown>): Promise<Delivery> {
  const before = updatesOf(aliceUri).length;
  await change();
  await drained();
  const sent = updatesOf(aliceUri).slice(before);
  expect(sent).toHaveLength(1);
  return sent[0]!;
}

/** Alice's actor document as the vault serves it, without its @context. */
async function actorDocument(): Promise<Json> {
  const response = await fetch(aliceUri, { headers: { accept: ACTIVITY_JSON } });
  expect(response.status).toBe(200);
  const { '@context': _context, ...document } = (await response.json()) as Json;
  return document;
}

/** Waits until the outbox and Fedify's queue are empty: what was to be sent has been. */
async function drained() {
  await vault.ctx.outbox.idle();
  const queued = () =>
    vault.ctx.database.database.prepare('SELECT count(*) FROM federation_queue').pluck().get();
  await expect.poll(queued, { timeout: 30_000 }).toBe(0);
}

describe('Update(Person) to the servers of remote followers', () => {
  it('sends a new name and bio once to the shared inbox, signed by her, as her actor document', async () => {
    const delivery = await changeAlice({ fullName: 'Alice Arbor', bio: 'Barolo & <b>more</b>' });
    expect(delivery.inbox).toBe('shared');
    expect(delivery.keyOwner).toBe(aliceUri);
    const activity = delivery.activity as Json & { object: Json };
    expect(activity.actor).toBe(aliceUri);
    expect(activity.to).toBe(PUBLIC);
    expect(activity.cc).toBe(`${aliceUri}/followers`);
    expect(activity.id).toMatch(new RegExp(`^${aliceUri}#updates/\\d+$`));
    expect(activity.object).toEqual(await actorDocument());
    expect(activity.object).toMatchObject({
      type: 'Person',
      name: 'Alice Arbor',
      summary: expect.stringContaining('Barolo &amp; &lt;b&gt;more&lt;/b&gt;'),
    });
  });

  it('sends a new avatar and its removal', async () => {
    const added = await changeAlice({}, { replace: await jpeg(120, 120) });
    const object = (added.activity as { object: Json & { icon?: { url: string } } }).object;
    expect(object).toEqual(await actorDocument());
    const path = (await vault.ctx.users.findById(aliceId))!.avatarPath!;
    expect(object.icon?.url).toBe(`${vault.url}/${path}`);
    const removed = await changeAlice({}, { remove: true });
    const after = (removed.activity as { object: Json }).object;
    expect(after).not.toHaveProperty('icon');
    expect(after).toEqual(await actorDocument());
  });

  it("sends 'Approve followers' as manuallyApprovesFollowers, both ways", async () => {
    const on = await changeAlice({ approveFollowers: true });
    expect((on.activity as { object: Json }).object).toMatchObject({
      manuallyApprovesFollowers: true,
    });
    const off = await changeAlice({ approveFollowers: false });
    const object = (off.activity as { object: Json }).object;
    expect(object).toMatchObject({ manuallyApprovesFollowers: false });
    expect(object).toEqual(await actorDocument());
  });

  it("sends an admin's edit of her name", async () => {
    const delivery = await sentAfter(() =>
      vault.ctx.userAdmin.update(aliceId, { fullName: 'Alice as the admin wrote it' }),
    );
    const object = (delivery.activity as { object: Json }).object;
    expect(object).toMatchObject({ name: 'Alice as the admin wrote it' });
    expect(object).toEqual(await actorDocument());
  });

  it('sends what changed while she did not federate once she federates again', async () => {
    const user = (await vault.ctx.users.findById(aliceId))!;
    await vault.ctx.profiles.update(user, { activityPubEnabled: false });
    const off = (await vault.ctx.users.findById(aliceId))!;
    const delivery = await sentAfter(async () => {
      await vault.ctx.profiles.update(off, { fullName: 'Alice Away' });
      await vault.ctx.profiles.update((await vault.ctx.users.findById(aliceId))!, {
        activityPubEnabled: true,
      });
    });
    const object = (delivery.activity as { object: Json }).object;
    expect(object).toMatchObject({ name: 'Alice Away' });
    expect(object).toEqual(await actorDocument());
  });

  it('sends nothing for a change no remote server shows (email, default visibility, password, the same name)', async () => {
    const user = (await vault.ctx.users.findById(aliceId))!;
    const before = updatesOf(aliceUri).length;
    await vault.ctx.profiles.update(user, {
      email: 'alice@elsewhere.example',
      defaultVisibility: 'PRIVATE',
      fullName: user.fullName,
    });
    await vault.ctx.userAdmin.update(aliceId, { email: 'alice@admin.example' });
    await vault.ctx.profiles.changePassword(
      (await vault.ctx.users.findById(aliceId))!,
      'alice-password',
      'a much longer alice password',
      undefined,
      '127.0.0.1',
    );
    // A change remote servers show, made after those: its Update is the only one that comes.
    const next = await changeAlice({ bio: 'Only this' });
    await drained();
    expect(updatesOf(aliceUri)).toHaveLength(before + 1);
    expect((next.activity as { object: Json }).object).toMatchObject({
      summary: expect.stringContaining('Only this'),
    });
  });

  it('sends nothing for a user with no remote follower', async () => {
    const bobUri = `${vault.url}/users/bob`;
    await vault.ctx.profiles.update((await vault.ctx.users.findById(bobId))!, {
      fullName: 'Bob Brewer',
      bio: 'Stout',
      approveFollowers: true,
    });
    await drained();
    expect(updatesOf(bobUri)).toEqual([]);
    expect(remote.deliveries.filter((d) => d.keyOwner === bobUri)).toEqual([]);
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import type { Delivery } from '../helpers/fake-remote-records.ts';
import { jpeg } from '../helpers/images.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * Entries of a federated user reach her remote followers as Notes: a fake Mastodon-shaped
 * server (its own signature checks) follows alice with two accounts and receives what the vault
 * sends when she logs, edits and deletes an entry.
 */

let vault: TestServer;
let remote: FakeRemote;
/** A server where nobody follows alice (until the test of a last follow gone). */
let elsewhere: FakeRemote;
let alice: { id: number; role: 'USER' };
let carol: { id: number; role: 'USER' };
let aliceId: string;

const ACTIVITY_JSON = 'application/activity+json';

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const a = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    fullName: 'Alice Archer',
    activityPubEnabled: true,
  });
  const c = await vault.createUser({ username: 'carol', password: 'carol-password' });
  alice = { id: a.id, role: 'USER' };
  carol = { id: c.id, role: 'USER' };
  aliceId = `${vault.url}/users/alice`;
  [remote, elsewhere] = await Promise.all([startFakeRemote(), startFakeRemote()]);
  remote.addAccount('fan');
  remote.addAccount('fan2');
  remote.addAccount('stranger');
  elsewhere.addAccount('stranger');
  elsewhere.addAccount('lone');
  const db = vault.ctx.database.database;
  await insertRemoteFollower(db, await vault.ctx.actors.localActorId(a.id), remote, 'fan');
  await insertRemoteFollower(db, await vault.ctx.actors.localActorId(a.id), remote, 'fan2');
  // carol (not federated) has a remote follower too, from before she turned federation off.
  await insertRemoteFollower(db, await vault.ctx.actors.localActorId(c.id), remote, 'fan');
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close(), elsewhere?.close()]);
});

interface SentNote {
  id: string;
  content: string;
  updated?: string;
  attachment: { url: string; width: number; height: number }[];
  [term: string]: unknown;
}
interface SentActivity {
  id: string;
  type: string;
  actor: string;
  to: unknown;
  cc?: unknown;
  object: SentNote;
}
const sent = (d: Delivery) => d.activity as unknown as SentActivity;

const ofType = (type: string, objectId?: string) => (d: Delivery) => {
  const activity = d.activity as { type?: string; object?: { id?: string } };
  return activity.type === type && (objectId === undefined || activity.object?.id === objectId);
};

async function logEntry(photo = true) {
  return vault.ctx.beverages.create(
    alice,
    {
      type: 'WHISKEY',
      name: 'Lagavulin 16',
      subtype: 'Scotch',
      makerName: 'Lagavulin',
      rating: 4,
      notes: 'Peat & smoke.\n<script>x</script>',
      inCellar: true,
    },
    photo ? await jpeg(640, 480) : undefined,
  );
}

describe('entries of a federated user sent to remote followers', () => {
  it('sends a new entry as a Create(Note) to the followers collection only, once per server through the shared inbox, signed by the author', async () => {
    const entry = await logEntry();
    const noteId = `${aliceId}/entries/${entry.id}`;
    const delivery = await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    expect(delivery.inbox).toBe('shared');
    expect(delivery.keyOwner).toBe(aliceId);
    // Recorded only after the fake verified the draft-cavage signature with alice's key.
    expect(delivery.keyId).toBe(`${aliceId}#main-key`);
    expect(delivery.headers.signature).toContain('(request-target)');
    const activity = sent(delivery);
    expect(activity.id).toBe(`${noteId}#create`);
    expect(activity.actor).toBe(aliceId);
    expect(activity.to).toBe(`${aliceId}/followers`);
    expect(activity.cc).toBeUndefined();
    expect(JSON.stringify(activity)).not.toContain('https://www.w3.org/ns/activitystreams#Public');
    const note = activity.object;
    expect(note).toMatchObject({
      type: 'Note',
      attributedTo: aliceId,
      to: `${aliceId}/followers`,
      'vault:entryType': 'WHISKEY',
      'vault:entryName': 'Lagavulin 16',
      'vault:rating': 4,
      'vault:status': 'TRIED',
      'vault:makerName': 'Lagavulin',
    });
    expect(note.content).toContain('Alice Archer tried <strong>Lagavulin 16</strong>');
    expect(note.content).toContain('★★★★☆');
    expect(note.content).toContain('&lt;script&gt;');
    expect(note.attachment).toEqual([
      expect.objectContaining({
        type: 'Image',
        mediaType: 'image/jpeg',
        width: 640,
        height: 480,
        name: 'Bottle photo of Lagavulin 16',
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Two followers on one server: one POST.
    expect(remote.deliveries.filter(ofType('Create', noteId))).toHaveLength(1);
  });

  it("sends Collection-Synchronization (FEP-8fcf) with each followers-only delivery: the collection, that server's part of it and the digest of its followers", async () => {
    const entry = await logEntry(false);
    const noteId = `${aliceId}/entries/${entry.id}`;
    const delivery = await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    const header = delivery.headers['collection-synchronization'];
    expect(typeof header).toBe('string');
    const fields = Object.fromEntries(
      [...String(header).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const followers = `${aliceId}/followers`;
    expect(fields.collectionId).toBe(followers);
    const url = new URL(fields.url!);
    expect(`${url.origin}${url.pathname}`).toBe(followers);
    expect(url.searchParams.get('base-url')).toBe(`${remote.origin}/`);
    // FEP-8fcf: the XOR of the SHA-256 of each follower's id on that server (fan and fan2).
    const digest = Buffer.alloc(32);
    for (const name of ['fan', 'fan2']) {
      const hash = createHash('sha256').update(remote.account(name).id).digest();
      for (let i = 0; i < 32; i++) digest[i]! ^= hash[i]!;
    }
    expect(fields.digest).toBe(digest.toString('hex'));
    // The URL lists exactly those followers to that server (Mastodon reads its first page).
    const collection = (await remote.signedGet('fan', url.href)).json() as { first: string };
    const page = (await remote.signedGet('fan', collection.first)).json() as {
      orderedItems?: unknown[];
    };
    const items = JSON.stringify(page.orderedItems);
    expect(items).toContain(remote.account('fan').id);
    expect(items).toContain(remote.account('fan2').id);
    expect(items).not.toContain(remote.account('stranger').id);
  });

  it('serves the attachment without a session by its capability URL, and not by a wrong token nor under /media/ without a session', async () => {
    const entry = await logEntry();
    const noteId = `${aliceId}/entries/${entry.id}`;
    const delivery = await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    const url = sent(delivery).object.attachment[0]!.url as string;
    expect(url).toMatch(new RegExp(`^${vault.url}/media/f/[A-Za-z0-9_-]{43}\\.jpg$`));
    const photo = await fetch(url);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const wrong = url.replace(/\/f\/./, (m) => (m.endsWith('A') ? '/f/B' : '/f/A'));
    expect((await fetch(wrong)).status).toBe(404);
    expect((await fetch(`${vault.url}/media/f/nothing.jpg`)).status).toBe(404);
    const stored = (await vault.ctx.beverages.get(entry.id)).photoPath!;
    expect((await fetch(`${vault.url}/${stored}`)).status).toBe(401);
  });

  it('sends an edit as an Update(Note) with updated set, and a new photo under a new URL that ends the old one', async () => {
    const entry = await logEntry();
    const noteId = `${aliceId}/entries/${entry.id}`;
    const created = await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    const oldUrl = sent(created).object.attachment[0]!.url as string;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const edited = await vault.ctx.beverages.update(
      alice,
      entry.id,
      { rating: 5, notes: 'Even better' },
      { replace: await jpeg(300, 200) },
    );
    const update = await remote.waitForDelivery(ofType('Update', noteId), 10_000);
    const activity = sent(update);
    expect(activity.id).toBe(`${noteId}#update-${edited.updatedAt.getTime()}`);
    expect(activity.to).toBe(`${aliceId}/followers`);
    expect(activity.object['vault:rating']).toBe(5);
    expect(activity.object.updated).toBeDefined();
    expect(activity.object.content).toContain('★★★★★');
    const newUrl = activity.object.attachment[0]!.url as string;
    expect(activity.object.attachment[0]!).toMatchObject({ width: 300, height: 200 });
    expect(newUrl).not.toBe(oldUrl);
    expect((await fetch(newUrl)).status).toBe(200);
    expect((await fetch(oldUrl)).status).toBe(404);
  });

  it('sends a deleted entry as a Delete of a Tombstone, and its photo URL stops answering', async () => {
    const entry = await logEntry();
    const noteId = `${aliceId}/entries/${entry.id}`;
    const created = await remote.waitForDelivery(ofType('Create', noteId), 10_000);
    const url = sent(created).object.attachment[0]!.url as string;
    await vault.ctx.beverages.remove(alice, entry.id);
    expect((await fetch(url)).status).toBe(404);
    const capabilities = await vault.ctx.database.database
      .prepare('SELECT count(*) FROM photo_capabilities WHERE beverage_id = ?')
      .pluck()
      .get(entry.id);
    expect(capabilities).toBe(0);
    const deleted = await remote.waitForDelivery(ofType('Delete', noteId), 10_000);
    expect(deleted.activity).toMatchObject({
      id: `${noteId}#delete`,
      actor: aliceId,
      to: `${aliceId}/followers`,
      object: { type: 'Tombstone', id: noteId, formerType: expect.stringMatching(/Note$/) },
    });
    expect(deleted.inbox).toBe('shared');
  });

  it('sends nothing for a user without activityPubEnabled, though a remote follow of theirs remains', async () => {
    const entry = await vault.ctx.beverages.create(carol, { type: 'BEER', name: 'Quiet Ale' });
    await vault.ctx.outbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(JSON.stringify(remote.deliveries)).not.toContain(`/users/carol/entries/${entry.id}`);
    expect(remote.deliveries.some((d) => d.keyOwner.endsWith('/users/carol'))).toBe(false);
  });

  it('dereferences the Note for a signed GET by a follower, 404 for an unsigned GET and for a signed GET from a server with no follower', async () => {
    const entry = await logEntry(false);
    const noteId = `${aliceId}/entries/${entry.id}`;
    const byFan = await remote.signedGet('fan', noteId);
    expect(byFan.status).toBe(200);
    expect(byFan.json()).toMatchObject({
      id: noteId,
      type: 'Note',
      attributedTo: aliceId,
      'vault:entryName': 'Lagavulin 16',
    });
    const unsigned = await fetch(noteId, { headers: { accept: ACTIVITY_JSON } });
    expect(unsigned.status).toBe(404);
    expect(await unsigned.json()).toEqual({ message: expect.any(String) });
    expect((await elsewhere.signedGet('stranger', noteId)).status).toBe(404);
    expect((await remote.signedGet('fan', `${aliceId}/entries/999999`)).status).toBe(404);
    expect((await remote.signedGet('fan', `${vault.url}/users/carol/entries/1`)).status).toBe(404);
    // The vault itself (a GET signed as one of its users) may read it.
    const loader = await (await vault.ctx.federation.load()).documentLoaderFor('alice');
    expect((await loader(noteId)).document).toMatchObject({ id: noteId, type: 'Note' });
  });

  it('is 404, never a 500, for a GET signed with a follower’s key id by someone else, or with a malformed signature', async () => {
    const entry = await logEntry(false);
    const noteId = `${aliceId}/entries/${entry.id}`;
    const request = { method: 'GET', url: noteId, headers: { accept: ACTIVITY_JSON } };
    const forged = remote.sign('stranger', request, { keyId: remote.account('fan').keyId });
    expect((await remote.send({ ...request, headers: forged })).status).toBe(404);
    for (const signature of ['garbage', 'keyId="javascript:alert(1)",signature="AAAA"', '']) {
      const res = await fetch(noteId, { headers: { accept: ACTIVITY_JSON, signature } });
      expect(res.status, signature).toBe(404);
    }
    const odd = await fetch(`${aliceId}/entries/0x1f`, { headers: { accept: ACTIVITY_JSON } });
    expect(odd.status).toBe(404);
  });

  it("stops answering a server the moment its last follower's follow is gone", async () => {
    const entry = await logEntry(false);
    const noteId = `${aliceId}/entries/${entry.id}`;
    const db = vault.ctx.database.database;
    await insertRemoteFollower(
      db,
      await vault.ctx.actors.localActorId(alice.id),
      elsewhere,
      'lone',
    );
    expect((await elsewhere.signedGet('lone', noteId)).status).toBe(200);
    await db
      .prepare('DELETE FROM follows WHERE follower_id = (SELECT id FROM actors WHERE uri = ?)')
      .run(elsewhere.account('lone').id);
    expect((await elsewhere.signedGet('lone', noteId)).status).toBe(404);
    expect((await remote.signedGet('fan', noteId)).status).toBe(200);
  });

  it('does not slow the author: the entry is stored and answered while the remote inbox hangs', async () => {
    remote.answerInbox('shared', 'hang');
    try {
      const started = performance.now();
      const entry = await logEntry(false);
      expect(performance.now() - started).toBeLessThan(1000);
      expect((await vault.ctx.beverages.get(entry.id)).name).toBe('Lagavulin 16');
    } finally {
      remote.answerInbox('shared', null);
    }
  });
});

describe('a follower who followed by sending a Follow', () => {
  it('gets the entries logged after its Accept, on its own server, once', async () => {
    const other = await startFakeRemote();
    try {
      other.addAccount('newfan');
      const follow = other.activities.follow('newfan', aliceId);
      expect((await other.post('newfan', `${aliceId}/inbox`, follow)).status).toBe(202);
      await other.waitForDelivery(ofType('Accept'), 10_000);
      const entry = await logEntry(false);
      const noteId = `${aliceId}/entries/${entry.id}`;
      const delivery = await other.waitForDelivery(ofType('Create', noteId), 10_000);
      expect(delivery.inbox).toBe('shared');
      expect(sent(delivery).to).toBe(`${aliceId}/followers`);
      // The first server's followers get it too, in one POST of their own.
      await remote.waitForDelivery(ofType('Create', noteId), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(other.deliveries.filter(ofType('Create', noteId))).toHaveLength(1);
      expect(remote.deliveries.filter(ofType('Create', noteId))).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('the /ns/vault context and NodeInfo', () => {
  it('counts federated entries as localPosts in NodeInfo', async () => {
    const res = await fetch(`${vault.url}/nodeinfo/2.1`, {
      headers: { accept: 'application/json' },
    });
    const info = (await res.json()) as { usage: { localPosts: number; users: { total: number } } };
    const federated = (await vault.ctx.database.database
      .prepare(
        'SELECT count(*) FROM beverages b JOIN users u ON u.id = b.user_id WHERE u.activitypub_enabled = 1',
      )
      .pluck<number>()
      .get())!;
    expect(federated).toBeGreaterThan(0);
    expect(info.usage.localPosts).toBe(federated);
    // carol's entry does not count.
    const all = await vault.ctx.database.database
      .prepare('SELECT count(*) FROM beverages')
      .pluck<number>()
      .get();
    expect(all).toBeGreaterThan(federated);
  });
});

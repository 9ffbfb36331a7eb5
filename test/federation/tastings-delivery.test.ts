import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import type { Delivery } from '../helpers/fake-remote-records.ts';
import { jpeg } from '../helpers/images.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * Tastings of a federated user reach her remote followers as Notes, addressed like her entries:
 * a fake Mastodon-shaped server follows alice and receives what the vault sends when she logs,
 * changes and deletes a tasting, and when she opens a bottle with a tasting; the Notes of an
 * entry's tastings are withdrawn when the entry leaves the fediverse and sent again (under a new
 * id) when it comes back; nothing goes for a tasting of a PRIVATE entry or of one kept out of it.
 */

let vault: TestServer;
let remote: FakeRemote;
let alice: { id: number; role: 'USER' };
let aliceId: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const a = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    fullName: 'Alice Archer',
    activityPubEnabled: true,
  });
  alice = { id: a.id, role: 'USER' };
  aliceId = `${vault.url}/users/alice`;
  remote = await startFakeRemote();
  remote.addAccount('fan');
  await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(a.id),
    remote,
    'fan',
  );
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

interface SentNote {
  id: string;
  content: string;
  to: unknown;
  attachment?: { url: string; width: number; height: number }[];
  [term: string]: unknown;
}
const sent = (d: Delivery) =>
  d.activity as unknown as { id: string; type: string; to: unknown; object: SentNote };

const ofType = (type: string, objectId: string) => (d: Delivery) => {
  const activity = d.activity as { type?: string; object?: { id?: string } };
  return activity.type === type && activity.object?.id === objectId;
};

const noteIdOf = (tastingId: number) => `${aliceId}/tastings/${tastingId}`;

async function logEntry(fields: { visibility?: 'PRIVATE' | 'MEMBERS'; federated?: boolean } = {}) {
  return vault.ctx.beverages.create(alice, {
    type: 'WINE',
    name: 'Barolo <Riserva>',
    subtype: 'Syrah',
    makerName: 'Vietti',
    rating: 3,
    ...fields,
  });
}

/** Waits until Fedify's queue is empty: what was to be sent has been. */
async function drained() {
  await vault.ctx.outbox.idle();
  const queued = vault.ctx.database.database
    .prepare('SELECT count(*) FROM federation_queue')
    .pluck();
  const end = Date.now() + 30_000;
  while ((await queued.get()) !== 0 && Date.now() < end)
    await new Promise((r) => setTimeout(r, 50));
  expect(await queued.get()).toBe(0);
}

describe('tastings of a federated user sent to remote followers', () => {
  it('sends a tasting as a Create(Note) to the followers, readable and with the vault terms and its photo', async () => {
    const entry = await logEntry();
    const tasting = await vault.ctx.tastings.create(
      alice,
      entry.id,
      { tastedOn: '2026-05-14', rating: 4, notes: 'Tar & roses' },
      await jpeg(400, 300),
    );
    const noteId = noteIdOf(tasting.id);
    const delivery = await remote.waitForDelivery(ofType('Create', noteId), 15_000);
    expect(delivery.keyOwner).toBe(aliceId);
    const activity = sent(delivery);
    expect(activity.id).toBe(`${noteId}#create`);
    expect(activity.to).toBe(`${aliceId}/followers`);
    expect(activity.object).toMatchObject({
      type: 'Note',
      attributedTo: aliceId,
      to: `${aliceId}/followers`,
      'vault:entryType': 'WINE',
      'vault:entryName': 'Barolo <Riserva>',
      'vault:subtype': 'Syrah',
      'vault:makerName': 'Vietti',
      'vault:rating': 4,
      'vault:status': 'TRIED',
      'vault:notes': 'Tar & roses',
      'vault:tastedOn': '2026-05-14',
      'vault:openedBottle': false,
    });
    expect(activity.object).not.toHaveProperty('vault:vintage');
    const { content } = activity.object;
    expect(content).toContain('Alice Archer tasted <strong>Barolo &lt;Riserva&gt;</strong>');
    expect(content).toContain('Rating: ★★★★☆ (4/5)');
    expect(content).toContain('Tasted on 2026-05-14');
    expect(content).toContain('Tar &amp; roses');
    const [image] = activity.object.attachment!;
    expect(image).toMatchObject({ width: 400, height: 300 });
    expect(image!.url).toMatch(new RegExp(`^${vault.url}/media/f/[A-Za-z0-9_-]{43}\\.jpg$`));
    const photo = await fetch(image!.url);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    // The stored photo's own URL stays for signed-in viewers only.
    expect((await fetch(`${vault.url}/${tasting.photoPath!}`)).status).toBe(401);
  });

  it('sends a change as an Update(Note) and a deletion as a Delete(Tombstone); the photo URL stops answering', async () => {
    const entry = await logEntry();
    const tasting = await vault.ctx.tastings.create(alice, entry.id, {}, await jpeg(200, 200));
    const noteId = noteIdOf(tasting.id);
    const created = await remote.waitForDelivery(ofType('Create', noteId), 15_000);
    expect(sent(created).object['vault:rating']).toBe(0);
    expect(sent(created).object.content).not.toContain('Rating:');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = await vault.ctx.tastings.change(alice, entry.id, tasting.id, { rating: 5 });
    const update = await remote.waitForDelivery(ofType('Update', noteId), 15_000);
    expect(sent(update).id).toBe(`${noteId}#update-${changed.updatedAt.getTime()}`);
    expect(sent(update).object['vault:rating']).toBe(5);
    expect(sent(update).object.updated).toBeDefined();
    const url = sent(update).object.attachment![0]!.url;
    await vault.ctx.tastings.remove(alice, entry.id, tasting.id);
    const deleted = await remote.waitForDelivery(ofType('Delete', noteId), 15_000);
    expect(sent(deleted).id).toBe(`${noteId}#delete`);
    expect(sent(deleted).object).toMatchObject({ type: 'Tombstone', id: noteId });
    expect((await fetch(url)).status).toBe(404);
  });

  it('sends the tasting of an opened bottle as "opened a bottle of", with the vintage', async () => {
    const entry = await logEntry();
    const bottle = await vault.ctx.bottles.add(alice, entry.id, {
      quantity: 2,
      sizeMl: 750,
      vintage: 2016,
    });
    const opened = await vault.ctx.bottles.open(alice, entry.id, bottle.id, {
      tasting: { rating: 5 },
    });
    const noteId = noteIdOf(opened.tasting!.id);
    const delivery = await remote.waitForDelivery(ofType('Create', noteId), 15_000);
    expect(sent(delivery).object).toMatchObject({
      'vault:openedBottle': true,
      'vault:vintage': 2016,
      'vault:rating': 5,
    });
    expect(sent(delivery).object.content).toContain(
      'Alice Archer opened a bottle of <strong>Barolo &lt;Riserva&gt;</strong>',
    );
    expect(sent(delivery).object.content).toContain('Vintage: 2016');
  });

  it('deleting the entry withdraws its tastings’ Notes too', async () => {
    const entry = await logEntry();
    const tasting = await vault.ctx.tastings.create(alice, entry.id, { rating: 2 });
    const noteId = noteIdOf(tasting.id);
    await remote.waitForDelivery(ofType('Create', noteId), 15_000);
    await vault.ctx.beverages.remove(alice, entry.id);
    const deleted = await remote.waitForDelivery(ofType('Delete', noteId), 15_000);
    expect(sent(deleted).object).toMatchObject({ type: 'Tombstone', id: noteId });
  });

  it('withdraws the tastings’ Notes when their entry becomes PRIVATE, and sends them again under a new id when it comes back', async () => {
    const entry = await logEntry();
    const first = await vault.ctx.tastings.create(alice, entry.id, { rating: 3 });
    const second = await vault.ctx.tastings.create(alice, entry.id, { rating: 4 });
    const ids = [first, second].map((t) => noteIdOf(t.id));
    for (const id of ids) await remote.waitForDelivery(ofType('Create', id), 15_000);

    await vault.ctx.beverages.update(alice, entry.id, { visibility: 'PRIVATE' });
    for (const id of ids) {
      const deleted = await remote.waitForDelivery(ofType('Delete', id), 15_000);
      expect(sent(deleted)).toMatchObject({ id: `${id}#delete`, to: `${aliceId}/followers` });
      expect(sent(deleted).object).toMatchObject({ type: 'Tombstone', id });
    }
    // The tastings stay; a change while the entry is out of the fediverse goes nowhere.
    expect(await vault.ctx.tastings.list(alice, entry.id)).toHaveLength(2);
    await vault.ctx.tastings.change(alice, entry.id, first.id, { rating: 1 });
    await drained();
    expect(remote.deliveries.filter(ofType('Update', ids[0]!))).toEqual([]);

    await vault.ctx.beverages.update(alice, entry.id, { visibility: 'MEMBERS' });
    // Back under the entry's next generation: servers keep a tombstone for the old ids.
    for (const id of ids) {
      const recreated = await remote.waitForDelivery(ofType('Create', `${id}-1`), 15_000);
      expect(sent(recreated).id).toBe(`${id}-1#create`);
      expect(sent(recreated).object.to).toBe(`${aliceId}/followers`);
    }
    const back = (id: string) => remote.deliveries.find(ofType('Create', `${id}-1`))!;
    expect(sent(back(ids[0]!)).object['vault:rating']).toBe(1);

    // Deleting the entry now withdraws the new ids.
    await vault.ctx.beverages.remove(alice, entry.id);
    for (const id of ids) await remote.waitForDelivery(ofType('Delete', `${id}-1`), 15_000);
    for (const id of ids) {
      expect(remote.deliveries.filter(ofType('Create', id))).toHaveLength(1);
      expect(remote.deliveries.filter(ofType('Delete', id))).toHaveLength(1);
    }
  });

  it('withdraws the tastings’ Notes when a change of many keeps their entry out of the fediverse, and sends them again when it comes back', async () => {
    const entry = await logEntry();
    const tasting = await vault.ctx.tastings.create(alice, entry.id, { rating: 5 });
    const id = noteIdOf(tasting.id);
    await remote.waitForDelivery(ofType('Create', id), 15_000);
    const change = (federated: boolean) =>
      vault.ctx.beverages.changeVisibility(
        alice.id,
        { ids: [entry.id] },
        {
          visibility: 'FOLLOWERS',
          federated,
        },
      );
    expect(await change(false)).toBe(1);
    await remote.waitForDelivery(ofType('Delete', id), 15_000);
    expect(await change(true)).toBe(1);
    await remote.waitForDelivery(ofType('Create', `${id}-1`), 15_000);
    await vault.ctx.tastings.remove(alice, entry.id, tasting.id);
    await remote.waitForDelivery(ofType('Delete', `${id}-1`), 15_000);
  });

  it('sends nothing for a tasting of a PRIVATE entry or of one kept out of the fediverse', async () => {
    const hidden = await logEntry({ visibility: 'PRIVATE' });
    const kept = await logEntry({ federated: false });
    const quiet = [
      await vault.ctx.tastings.create(alice, hidden.id, { rating: 1 }),
      await vault.ctx.tastings.create(alice, kept.id, { rating: 1 }),
    ];
    await vault.ctx.tastings.change(alice, hidden.id, quiet[0]!.id, { rating: 2 });
    await vault.ctx.tastings.remove(alice, kept.id, quiet[1]!.id);
    await drained();
    const ids = quiet.map((t) => noteIdOf(t.id));
    const mentioned = remote.deliveries.filter((d) =>
      ids.some((id) => JSON.stringify(d.activity).includes(id)),
    );
    expect(mentioned).toEqual([]);
  });
});

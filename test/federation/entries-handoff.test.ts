import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOutbox, type Outbox } from '../../src/outbox/outbox.ts';
import { createOutboxRepository } from '../../src/outbox/repository.ts';
import type { EntryDeliveryJob } from '../../federation/entry-delivery.ts';
import { registerEntryHandoff } from '../../federation/entry-handoff.ts';
import { createFederatedEntries } from '../../federation/entry-rows.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The outbox side of entry delivery (federation/entry-handoff.ts on the outbox's federating
 * handlers), with the hand-off to Fedify replaced by a recorder the test settles: what each
 * write hands over, the row kept until the hand-off resolved, a failed one made again, one
 * entry's activities in order, the generations of Note ids, and nothing for users who are not
 * federated, have no remote followers, or entries that were never (or no longer) federated.
 */

let vault: TestVault;
let outbox: Outbox;
let clock = 1_000_000;
let alice: { id: number; role: 'USER' };
let followers: boolean;
let auto: boolean;
let sent: { job: EntryDeliveryJob; resolve: () => void; reject: (error: Error) => void }[];
let entries: ReturnType<typeof createFederatedEntries>;

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  // This test's outbox delivers instead of the app's, with only the entry hand-off.
  await vault.ctx.outbox.stop();
  const { database } = vault.ctx.database;
  outbox = createOutbox({
    repo: createOutboxRepository(database),
    transaction: vault.ctx.database.transaction,
    localUserOf: (actorId) => vault.ctx.actors.userIdOf(actorId),
    now: () => clock,
  });
  entries = createFederatedEntries(database);
  registerEntryHandoff(outbox, {
    users: vault.ctx.users,
    entries,
    audience: { hasRemoteFollowers: () => Promise.resolve(followers) },
    send: (job) =>
      new Promise<void>((resolve, reject) => {
        sent.push({ job, resolve, reject });
        if (auto) resolve();
      }),
  });
  outbox.start();
  const user = await vault.createUser({ username: 'alice', activityPubEnabled: true });
  alice = { id: user.id, role: 'USER' };
});
afterAll(async () => {
  await outbox.stop();
  await vault.close();
});
beforeEach(() => {
  sent = [];
  followers = true;
  auto = true;
});

/** Waits for `check`, nudging this test's outbox (the app's writes wake only the app's). */
async function until(check: () => boolean) {
  const end = Date.now() + 10_000;
  while (!check() && Date.now() < end) {
    void outbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const rows = () =>
  vault.ctx.database.database.prepare('SELECT count(*) FROM outbox').pluck<number>().get();
const kinds = () =>
  sent.map(({ job }) => [
    job.kind,
    job.kind === 'Delete' ? job.generation : job.entry.noteGeneration,
  ]);
const logEntry = (input: { visibility?: 'PRIVATE' | 'MEMBERS'; federated?: boolean } = {}) =>
  vault.ctx.beverages.create(alice, { type: 'WINE', name: 'Barolo', ...input });

describe('handing entry activities to the federation queue', () => {
  it('keeps the outbox row until the hand-off resolved, then lets it go', async () => {
    auto = false;
    const entry = await logEntry();
    await until(() => sent.length > 0);
    expect(sent.map(({ job }) => job)).toEqual([
      expect.objectContaining({ kind: 'Create', username: 'alice', entryId: entry.id }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await rows()).toBe(1);
    sent[0]!.resolve();
    await outbox.idle();
    expect(await rows()).toBe(0);
    expect(sent).toHaveLength(1);
  });

  it('hands a failed hand-off over again at the next attempt', async () => {
    const entry = await logEntry();
    await outbox.idle();
    sent = [];
    auto = false;
    await vault.ctx.beverages.update(alice, entry.id, { rating: 5 });
    await until(() => sent.length === 1);
    sent[0]!.reject(new Error('queue unavailable'));
    await outbox.idle();
    expect(await rows()).toBe(1);
    auto = true;
    clock += 1000;
    await outbox.idle();
    expect(sent.map(({ job }) => job.kind)).toEqual(['Update', 'Update']);
    expect(await rows()).toBe(0);
  });

  it('queues the activities of one entry in order: the Update after the Create', async () => {
    auto = false;
    await outbox.stop();
    const entry = await logEntry();
    await vault.ctx.beverages.update(alice, entry.id, { rating: 5 });
    outbox.start();
    await until(() => sent.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent.map(({ job }) => job.kind)).toEqual(['Create']);
    sent[0]!.resolve();
    await until(() => sent.length > 1);
    expect(sent.map(({ job }) => job.kind)).toEqual(['Create', 'Update']);
    sent[1]!.resolve();
    await outbox.idle();
  });

  it('sends a Delete with the entry id, the generation it had and the time of the deletion', async () => {
    const entry = await logEntry();
    await outbox.idle();
    sent = [];
    clock += 5;
    await vault.ctx.beverages.remove(alice, entry.id);
    await outbox.idle();
    expect(sent.map(({ job }) => job)).toEqual([
      {
        kind: 'Delete',
        username: 'alice',
        fullName: expect.any(String),
        entryId: entry.id,
        generation: 0,
        deletedAt: new Date(clock),
      },
    ]);
  });

  it('gives an entry that comes back a new generation of its Note id, once even when handed over again, and its later Delete that one', async () => {
    const entry = await logEntry();
    await outbox.idle();
    await vault.ctx.beverages.update(alice, entry.id, { visibility: 'PRIVATE' });
    await outbox.idle();
    auto = false;
    await vault.ctx.beverages.update(alice, entry.id, { visibility: 'MEMBERS' });
    await until(() => sent.length === 3);
    sent[2]!.reject(new Error('queue unavailable')); // handled again: counted once
    await outbox.idle();
    auto = true;
    clock += 1000;
    await outbox.idle();
    expect(await entries.generations.current(entry.id)).toBe(1);
    await vault.ctx.beverages.remove(alice, entry.id);
    await outbox.idle();
    expect(kinds()).toEqual([
      ['Create', 0],
      ['Delete', 0],
      ['Create', 1],
      ['Create', 1],
      ['Delete', 1],
    ]);
  });

  it('sends a Delete handled after the return it came before for the generation it left', async () => {
    const entry = await logEntry();
    await outbox.idle();
    sent = [];
    auto = false;
    await outbox.stop();
    await vault.ctx.beverages.update(alice, entry.id, { visibility: 'PRIVATE' });
    await vault.ctx.beverages.update(alice, entry.id, { visibility: 'MEMBERS' });
    outbox.start();
    await until(() => sent.length === 1);
    // The Delete fails, and the Create waiting behind it with it (it is never sent).
    sent[0]!.reject(new Error('queue unavailable'));
    await outbox.idle();
    expect(await entries.generations.current(entry.id)).toBe(1);
    auto = true;
    clock += 1000;
    await outbox.idle();
    expect(kinds()).toEqual([
      ['Delete', 0],
      ['Delete', 0],
      ['Create', 1],
    ]);
  });

  it('sends nothing for a user without remote followers or without activityPubEnabled, nor for an entry gone since', async () => {
    followers = false;
    const quiet = await logEntry();
    await vault.ctx.beverages.remove(alice, quiet.id);
    await outbox.idle();
    followers = true;
    await vault.ctx.users.update(alice.id, { activityPubEnabled: false });
    try {
      const off = await logEntry();
      await vault.ctx.beverages.remove(alice, off.id);
      await outbox.idle();
    } finally {
      await vault.ctx.users.update(alice.id, { activityPubEnabled: true });
    }
    await outbox.stop();
    const gone = await logEntry();
    await vault.ctx.beverages.remove(alice, gone.id);
    outbox.start();
    await outbox.idle();
    // Only the Delete of the entry gone before its Create went out.
    expect(sent.map(({ job }) => [job.kind, job.entryId])).toEqual([['Delete', gone.id]]);
    expect(await rows()).toBe(0);
  });
});

describe('deleting an entry that is not in the fediverse', () => {
  it('sends no Delete for a PRIVATE entry nor for one kept out of the fediverse: nothing was ever sent', async () => {
    const secret = await logEntry({ visibility: 'PRIVATE' });
    const local = await logEntry({ federated: false });
    await vault.ctx.beverages.remove(alice, secret.id);
    await vault.ctx.beverages.remove(alice, local.id);
    await outbox.idle();
    expect(sent).toEqual([]);
    expect(await rows()).toBe(0);
  });

  it('sends no second Delete for an entry deleted after it left the fediverse', async () => {
    const entry = await logEntry();
    await outbox.idle();
    await vault.ctx.beverages.update(alice, entry.id, { federated: false });
    await vault.ctx.beverages.remove(alice, entry.id);
    await outbox.idle();
    expect(sent.map(({ job }) => job.kind)).toEqual(['Create', 'Delete']);
  });
});

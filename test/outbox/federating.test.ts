import BetterSqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.ts';
import type { Database } from '../../src/db/database.ts';
import { postgresDatabase } from '../../src/db/postgres-database.ts';
import { sqliteDatabase } from '../../src/db/sqlite-database.ts';
import type { ActivityRow } from '../../src/db/schema/index.ts';
import { HANDOFF_LEASE_MS } from '../../src/outbox/handoffs.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Federating handlers (src/outbox/handoffs.ts): the one way an activity leaves the vault. The
 * job is picked in the delivery transaction after the local handlers, `send` runs after the
 * commit, and the outbox row goes only once it resolved: a failing send is retried with the
 * outbox's backoff, a crash before it resolved sends the same job again after the restart,
 * and jobs with one ordering key are handed over in order.
 */
let vault: TestVault;
afterEach(() => vault.close());

interface Job {
  activityId: number;
  type: string;
  entryId: number | null;
}

/** A send whose promises the test settles by hand. */
function manualSend() {
  const calls: { job: Job; resolve: () => void; reject: (error: Error) => void }[] = [];
  const send = (job: Job) =>
    new Promise<void>((resolve, reject) => calls.push({ job, resolve, reject }));
  return { calls, send };
}

const jobOf = async (activity: ActivityRow): Promise<Job> => ({
  activityId: activity.id,
  type: activity.type,
  entryId: activity.beverageId,
});

const count = async (db: Database, sql: string, ...params: unknown[]) =>
  (await db
    .prepare(sql)
    .pluck<number>()
    .get(...params))!;

/** A second connection to the vault's database, as another process would have. */
function otherConnection(): Database {
  const { databaseUrl, databasePath } = vault.config;
  return databaseUrl === null
    ? sqliteDatabase(new BetterSqlite(databasePath, { readonly: true }))
    : postgresDatabase(databaseUrl, { maxConnections: 1 });
}

async function until(check: () => boolean) {
  const end = Date.now() + 10_000;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function twoUsers(options: Parameters<typeof createTestVault>[0] = {}) {
  vault = createTestVault(options);
  const alice = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const bob = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  return { alice, bob };
}

/** A handler of Creates and Updates (ordered by entry: their kinds' key), whose sends the test settles. */
function federateByEntry(ctx: TestVault['ctx']) {
  const manual = manualSend();
  ctx.outbox.federate<Job>({
    name: 'test',
    types: ['Create', 'Update'],
    job: jobOf,
    send: manual.send,
  });
  return manual;
}

describe('a federating handler', () => {
  it('sends after the commit and after the local handlers, and the row goes only once the send resolved', async () => {
    const { alice, bob } = await twoUsers();
    const { ctx } = vault;
    await ctx.follows.follow(bob, alice.id);
    await ctx.outbox.idle();
    const other = otherConnection();
    const seen: { entries: number; feedItems: number }[] = [];
    const { calls, send } = manualSend();
    ctx.outbox.federate<Job>({
      name: 'test',
      types: ['Create'],
      job: jobOf,
      send: async (job) => {
        seen.push({
          entries: await count(other, 'SELECT count(*) FROM beverages WHERE id = ?', job.entryId),
          feedItems: await count(other, 'SELECT count(*) FROM feed_items'),
        });
        return send(job);
      },
    });
    const entry = await ctx.beverages.create(alice, { name: 'Oban 14', type: 'WHISKEY' });
    await until(() => calls.length > 0);
    await other.close();
    // Committed before the send: the entry and bob's feed item (the local fan-out).
    expect(seen).toEqual([{ entries: 1, feedItems: 1 }]);
    expect(calls[0]!.job).toMatchObject({ type: 'Create', entryId: entry.id });
    const db = ctx.database.database;
    expect(await count(db, 'SELECT count(*) FROM outbox')).toBe(1);
    let idle = false;
    const waiting = ctx.outbox.idle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(idle).toBe(false); // idle() waits for the hand-off too
    calls[0]!.resolve();
    await waiting;
    expect(await count(db, 'SELECT count(*) FROM outbox')).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('retries a failing send with the outbox backoff, without the local handlers again, and never fails the action', async () => {
    let clock = 1_000_000;
    const { alice, bob } = await twoUsers({ now: () => clock });
    const { ctx } = vault;
    await ctx.follows.follow(bob, alice.id);
    await ctx.outbox.idle();
    const cookie = await vault.login('alice', alice.password);
    let failing = true;
    const sent: Job[] = [];
    ctx.outbox.federate<Job>({
      name: 'test',
      types: ['Create'],
      job: jobOf,
      send: (job) => {
        sent.push(job);
        return failing ? Promise.reject(new Error('remote queue down')) : Promise.resolve();
      },
    });
    const form = new FormData();
    form.append('name', 'Springbank 10');
    form.append('type', 'WHISKEY');
    const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
    expect(res.status).toBe(201);
    await ctx.outbox.idle();
    const db = ctx.database.database;
    expect(
      await db.prepare('SELECT attempts, next_attempt_at, last_error FROM outbox').get(),
    ).toEqual({
      attempts: 1,
      next_attempt_at: clock + 1000,
      last_error: 'Error: remote queue down',
    });
    clock += 1000;
    await ctx.outbox.idle();
    expect(await db.prepare('SELECT attempts, next_attempt_at FROM outbox').get()).toEqual({
      attempts: 2,
      next_attempt_at: clock + 2000,
    });
    failing = false;
    clock += 2000;
    await ctx.outbox.idle();
    expect(await count(db, 'SELECT count(*) FROM outbox')).toBe(0);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((job) => job.activityId)).size).toBe(1); // the same activity
    // The local fan-out ran once, before the first send.
    expect(await count(db, 'SELECT count(*) FROM feed_items WHERE recipient_id = ?', bob.id)).toBe(
      1,
    );
  });

  it('sends the same job again after a crash before the send resolved', async () => {
    let clock = 1_000_000;
    const { alice } = await twoUsers({ now: () => clock });
    const first = manualSend();
    vault.ctx.outbox.federate<Job>({ name: 'test', types: ['Create'], ...first, job: jobOf });
    await vault.ctx.beverages.create(alice, { name: 'Laphroaig 10', type: 'WHISKEY' });
    await until(() => first.calls.length > 0);
    await vault.ctx.close(); // the process goes down while the activity is being handed over

    const restarted = createContext(vault.config, { now: () => clock });
    try {
      const sent: Job[] = [];
      restarted.outbox.federate<Job>({
        name: 'test',
        types: ['Create'],
        job: jobOf,
        send: async (job) => {
          sent.push(job);
        },
      });
      restarted.outbox.start();
      await restarted.outbox.idle();
      expect(sent).toEqual([]); // leased: the first run might still be at it
      clock += HANDOFF_LEASE_MS;
      await restarted.outbox.idle();
      expect(sent).toEqual([first.calls[0]!.job]);
      expect(await count(restarted.database.database, 'SELECT count(*) FROM outbox')).toBe(0);
    } finally {
      await restarted.close();
    }
  });

  it('hands jobs with one ordering key over one at a time, in order; a failure fails those behind it', async () => {
    let clock = 1_000_000;
    const { alice } = await twoUsers({ now: () => clock });
    const { ctx } = vault;
    const { calls } = federateByEntry(ctx);
    await ctx.outbox.stop();
    const entry = await ctx.beverages.create(alice, { name: 'Barolo', type: 'WINE' });
    await ctx.beverages.update(alice, entry.id, { rating: 5 });
    const other = await ctx.beverages.create(alice, { name: 'Barbaresco', type: 'WINE' });
    ctx.outbox.start();
    await until(() => calls.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The Update waits for the Create; the other entry does not.
    expect(calls.map((c) => [c.job.type, c.job.entryId])).toEqual([
      ['Create', entry.id],
      ['Create', other.id],
    ]);
    calls[0]!.reject(new Error('queue full'));
    calls[1]!.resolve();
    await ctx.outbox.idle();
    const rows = await ctx.database.database
      .prepare(
        'SELECT a.type, o.attempts FROM outbox o JOIN activities a ON a.id = o.activity_id ORDER BY o.id',
      )
      .all();
    expect(rows).toEqual([
      { type: 'Create', attempts: 1 },
      { type: 'Update', attempts: 1 },
    ]);
    clock += 1000;
    await until(() => calls.length === 3);
    expect(calls[2]!.job).toMatchObject({ type: 'Create', entryId: entry.id });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(3);
    calls[2]!.resolve();
    await until(() => calls.length === 4);
    expect(calls[3]!.job).toMatchObject({ type: 'Update', entryId: entry.id });
    calls[3]!.resolve();
    await ctx.outbox.idle();
    expect(await count(ctx.database.database, 'SELECT count(*) FROM outbox')).toBe(0);
  });

  it('keeps a row taken up while an earlier one with its ordering key waits for its retry behind it', async () => {
    let clock = 1_000_000;
    const { alice } = await twoUsers({ now: () => clock });
    const { ctx } = vault;
    const { calls } = federateByEntry(ctx);
    const entry = await ctx.beverages.create(alice, { name: 'Barolo', type: 'WINE' });
    await until(() => calls.length === 1);
    calls[0]!.reject(new Error('queue full'));
    await ctx.outbox.idle();
    // Edited while its Create waits to be handed over again: the Update must not go first.
    await ctx.beverages.update(alice, entry.id, { rating: 5 });
    await ctx.outbox.idle();
    expect(calls.map((c) => c.job.type)).toEqual(['Create']);
    expect(await count(ctx.database.database, 'SELECT count(*) FROM outbox')).toBe(2);
    clock += 2000;
    await until(() => calls.length === 2);
    expect(calls[1]!.job).toMatchObject({ type: 'Create', entryId: entry.id });
    calls[1]!.resolve();
    await until(() => calls.length === 3);
    expect(calls[2]!.job).toMatchObject({ type: 'Update', entryId: entry.id });
    calls[2]!.resolve();
    await ctx.outbox.idle();
    expect(await count(ctx.database.database, 'SELECT count(*) FROM outbox')).toBe(0);
  });

  it('treats a send that throws at once as a failed send', async () => {
    const { alice } = await twoUsers();
    vault.ctx.outbox.federate<Job>({
      name: 'test',
      types: ['Create'],
      job: jobOf,
      send: () => {
        throw new Error('not even a promise');
      },
    });
    await vault.ctx.beverages.create(alice, { name: 'Abrupt', type: 'WHISKEY' });
    await vault.ctx.outbox.idle();
    const row = await vault.ctx.database.database
      .prepare('SELECT attempts, last_error FROM outbox')
      .get();
    expect(row).toEqual({ attempts: 1, last_error: 'Error: not even a promise' });
  });

  it('lets the row go at once when no federating handler has a job for it', async () => {
    const { alice } = await twoUsers();
    const sent: Job[] = [];
    vault.ctx.outbox.federate<Job>({
      name: 'test',
      types: ['Create'],
      job: async () => undefined,
      send: async (job) => {
        sent.push(job);
      },
    });
    await vault.ctx.beverages.create(alice, { name: 'Quiet', type: 'WHISKEY' });
    await vault.ctx.outbox.idle();
    expect(sent).toEqual([]);
    expect(await count(vault.ctx.database.database, 'SELECT count(*) FROM outbox')).toBe(0);
  });
});

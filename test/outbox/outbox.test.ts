import fs from 'node:fs';
import BetterSqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.ts';
import type { Database } from '../../src/db/database.ts';
import { postgresDatabase } from '../../src/db/postgres-database.ts';
import { sqliteDatabase } from '../../src/db/sqlite-database.ts';
import { createFeedRepository, FAN_OUT_CHUNK } from '../../src/feed/repository.ts';
import type { ActivityRow } from '../../src/db/schema/index.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The durable outbox: what an entry write announces is recorded in the write's own transaction,
 * delivered after it commits and off the request path, retried while delivery fails, and
 * delivered after a restart when the process stopped first.
 */
let vault: TestVault;
afterEach(() => vault.close());

async function twoUsers(options: Parameters<typeof createTestVault>[0] = {}) {
  vault = createTestVault(options);
  const alice = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const bob = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  return { alice, bob };
}

const count = async (db: Database, sql: string, ...params: unknown[]) =>
  (await db
    .prepare(sql)
    .pluck<number>()
    .get(...params))!;

/** Makes every `event` (INSERT, DELETE) on `table` fail with `message`, as a full disk would. */
async function failEvery(db: Database, event: string, table: string, message: string) {
  const name = `fail_${event.toLowerCase()}_${table}`;
  await db.exec({
    sqlite: `CREATE TEMP TRIGGER ${name} BEFORE ${event} ON main.${table}
             BEGIN SELECT RAISE(ABORT, '${message}'); END`,
    postgres: `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql
                 AS $$ BEGIN RAISE EXCEPTION '${message}'; END $$;
               CREATE TRIGGER ${name} BEFORE ${event} ON ${table}
                 FOR EACH ROW EXECUTE FUNCTION ${name}()`,
  });
  return () =>
    db.exec({
      sqlite: `DROP TRIGGER temp.${name}`,
      postgres: `DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}()`,
    });
}

/** A second connection to the vault's database, as another process would have. */
function otherConnection(): Database {
  const { databaseUrl, databasePath } = vault.config;
  return databaseUrl === null
    ? sqliteDatabase(new BetterSqlite(databasePath, { readonly: true }))
    : postgresDatabase(databaseUrl, { maxConnections: 1 });
}

describe('recording', () => {
  it('stores an entry and its Create activity together', async () => {
    const { alice } = await twoUsers();
    await vault.ctx.outbox.stop(); // keep the outbox row to look at
    const entry = await vault.ctx.beverages.create(alice, { name: 'Talisker 10', type: 'WHISKEY' });
    const db = vault.ctx.database.database;
    const activity = (await db
      .prepare<{ id: number; type: string; actor_id: number }>(
        'SELECT id, type, actor_id FROM activities WHERE beverage_id = ?',
      )
      .get(entry.id))!;
    expect(activity).toEqual({
      id: expect.any(Number),
      type: 'Create',
      actor_id: await vault.ctx.actors.localActorId(alice.id),
    });
    expect(await count(db, 'SELECT count(*) FROM outbox WHERE activity_id = ?', activity.id)).toBe(
      1,
    );
  });

  it('leaves neither the entry nor its activity when the activity cannot be recorded', async () => {
    const { alice } = await twoUsers();
    const db = vault.ctx.database.database;
    const restore = await failEvery(db, 'INSERT', 'outbox', 'disk full');
    await expect(
      vault.ctx.beverages.create(alice, { name: 'Lost', type: 'WHISKEY' }),
    ).rejects.toThrow('disk full');
    await restore();
    expect(await count(db, 'SELECT count(*) FROM beverages')).toBe(0);
    expect(await count(db, 'SELECT count(*) FROM activities')).toBe(0);
  });

  it('records no activity for a write that fails', async () => {
    const { alice } = await twoUsers();
    const db = vault.ctx.database.database;
    const entry = await vault.ctx.beverages.create(alice, { name: 'Kept', type: 'WHISKEY' });
    await vault.ctx.outbox.idle();
    const before = await count(db, 'SELECT count(*) FROM activities');
    const restore = await failEvery(db, 'DELETE', 'beverages', 'locked');
    await expect(vault.ctx.beverages.remove(alice, entry.id)).rejects.toThrow('locked');
    await restore();
    expect(await count(db, 'SELECT count(*) FROM activities')).toBe(before);
    expect(await count(db, "SELECT count(*) FROM activities WHERE type = 'Delete'")).toBe(0);
    expect(await count(db, 'SELECT count(*) FROM beverages')).toBe(1);
  });
});

describe('delivery', () => {
  it('happens after the write has committed: another connection already sees the entry', async () => {
    const { alice } = await twoUsers();
    const other = otherConnection();
    const seen: number[] = [];
    vault.ctx.outbox.on('Create', async (activity) => {
      seen.push(
        await count(other, 'SELECT count(*) FROM beverages WHERE id = ?', activity.beverageId),
      );
    });
    await vault.ctx.beverages.create(alice, { name: 'Oban 14', type: 'WHISKEY' });
    await vault.ctx.outbox.idle();
    await other.close();
    expect(seen).toEqual([1]);
  });

  it('is not on the request path: the answer comes first, and a failing delivery does not fail it', async () => {
    const { alice } = await twoUsers();
    const cookie = await vault.login('alice', alice.password);
    let calls = 0;
    vault.ctx.outbox.on('Create', () => {
      calls++;
      throw new Error('recipient unreachable');
    });
    const form = new FormData();
    form.append('name', 'Ardbeg Uigeadail');
    form.append('type', 'WHISKEY');
    const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
    expect(res.status).toBe(201);
    expect(calls).toBe(0);
    await vault.ctx.outbox.idle();
    expect(calls).toBe(1);
    await vault.ctx.outbox.stop();
  });

  it('retries a throwing handler later, and delivers once it stops throwing', async () => {
    let clock = 1_000_000;
    const { alice, bob } = await twoUsers({ now: () => clock });
    const { ctx } = vault;
    await ctx.follows.follow(bob, alice.id);
    await ctx.outbox.idle();
    let failing = true;
    const delivered: ActivityRow[] = [];
    ctx.outbox.on('Create', async (activity) => {
      if (failing) throw new Error('recipient unreachable');
      delivered.push(activity);
    });
    const entry = await ctx.beverages.create(alice, { name: 'Springbank 10', type: 'WHISKEY' });
    await ctx.outbox.idle();
    const db = ctx.database.database;
    const row = await db.prepare('SELECT attempts, next_attempt_at, last_error FROM outbox').get();
    expect(row).toEqual({
      attempts: 1,
      next_attempt_at: clock + 1000,
      last_error: 'Error: recipient unreachable',
    });
    // The fan-out ran in the same delivery transaction: rolled back with it.
    expect(await count(db, 'SELECT count(*) FROM feed_items')).toBe(0);

    clock += 1000; // due again, still failing: the delay doubles
    await ctx.outbox.idle();
    expect(await db.prepare('SELECT attempts, next_attempt_at FROM outbox').get()).toEqual({
      attempts: 2,
      next_attempt_at: clock + 2000,
    });

    failing = false;
    clock += 2000;
    await ctx.outbox.idle();
    expect(delivered.map((a) => a.beverageId)).toEqual([entry.id]);
    expect(await count(db, 'SELECT count(*) FROM outbox')).toBe(0);
    expect(await count(db, 'SELECT count(*) FROM feed_items WHERE recipient_id = ?', bob.id)).toBe(
      1,
    );
    clock += 60_000;
    await ctx.outbox.idle();
    expect(delivered).toHaveLength(1);
  });

  it('delivers after a restart what the previous run left undelivered', async () => {
    const { alice, bob } = await twoUsers();
    await vault.ctx.follows.follow(bob, alice.id);
    await vault.ctx.outbox.idle();
    await vault.ctx.outbox.stop(); // the process goes down before delivering
    await vault.ctx.beverages.create(alice, { name: 'Laphroaig 10', type: 'WHISKEY' });
    const before = vault.ctx.database.database;
    expect(await count(before, 'SELECT count(*) FROM outbox')).toBe(1);
    expect(await count(before, 'SELECT count(*) FROM feed_items')).toBe(0);
    await vault.ctx.close();

    const restarted = createContext(vault.config);
    try {
      restarted.outbox.start();
      await restarted.outbox.idle();
      const db = restarted.database.database;
      expect(await count(db, 'SELECT count(*) FROM outbox')).toBe(0);
      expect(
        await count(db, 'SELECT count(*) FROM feed_items WHERE recipient_id = ?', bob.id),
      ).toBe(1);
      const page = await restarted.feed.page(bob, {});
      expect(page.items.map((item) => item.entry.name)).toEqual(['Laphroaig 10']);
    } finally {
      await restarted.close();
    }
    // The SQLite file is still there (on PostgreSQL, the restart above read the same database).
    if (vault.config.databaseUrl === null)
      expect(fs.existsSync(vault.config.databasePath)).toBe(true);
  });

  it('delivers in parts a handler asks to resume, each part in its own transaction, and resumes where it stopped', async () => {
    const { alice, bob } = await twoUsers();
    const calls: (string | undefined)[] = [];
    vault.ctx.outbox.on('Follow', async (_activity, resume) => {
      calls.push(resume);
      const next = Number(resume ?? 0) + 1;
      if (next === 2) void vault.ctx.outbox.stop(); // the process goes down after the second part
      return next < 4 ? String(next) : undefined;
    });
    await vault.ctx.follows.follow(bob, alice.id);
    // The worker stops itself in the second part: no third part comes until it starts again.
    await expect.poll(() => calls.length, { timeout: 20_000 }).toBe(2);
    expect(calls).toEqual([undefined, '1']);
    const db = vault.ctx.database.database;
    // Where it stopped: in this handler (after the app's own Follow handlers), at part 2.
    const progressOf = () => db.prepare('SELECT progress FROM outbox').pluck<string>().all();
    await expect
      .poll(async () => (await progressOf())[0]?.includes('"resume":"2"') ?? false)
      .toBe(true);
    const progress = await progressOf();
    expect(progress).toHaveLength(1);
    const stopped = JSON.parse(progress[0]!) as { handler: number; resume: string };
    expect(stopped.resume).toBe('2');
    expect(stopped.handler).toBeGreaterThanOrEqual(1);
    vault.ctx.outbox.start();
    await vault.ctx.outbox.idle();
    expect(calls).toEqual([undefined, '1', '2', '3']);
    expect(await count(db, 'SELECT count(*) FROM outbox')).toBe(0);
  });

  it("puts an entry into the feed of every one of an author's followers, a few hundred at a time", async () => {
    const { alice } = await twoUsers();
    const db = vault.ctx.database.database;
    const t = Date.now();
    const author = await vault.ctx.actors.localActorId(alice.id);
    const addUser = db
      .prepare(
        "INSERT INTO users (username, full_name, email, password_hash) VALUES (?, ?, ?, 'x') RETURNING id",
      )
      .pluck<number>();
    const addFollow = db.prepare(
      "INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)",
    );
    const FOLLOWERS = 601;
    await vault.ctx.database.transaction(async () => {
      for (let i = 0; i < FOLLOWERS; i++) {
        const id = (await addUser.get(`f${i}`, `F ${i}`, `f${i}@example.com`))!;
        await addFollow.run(await vault.ctx.actors.localActorId(id), author, t);
      }
    });
    const items = () => count(db, 'SELECT count(*) FROM feed_items');
    const entry = await vault.ctx.beverages.create(alice, {
      name: 'Springbank 10',
      type: 'WHISKEY',
    });
    await vault.ctx.outbox.idle();
    expect(await items()).toBe(FOLLOWERS);
    expect(await count(db, 'SELECT count(*) FROM outbox')).toBe(0);

    // The parts themselves: FAN_OUT_CHUNK followers each, the last follower reached as token.
    await db.exec('DELETE FROM feed_items');
    const feed = createFeedRepository(vault.ctx.database.database);
    const activity = (await db
      .prepare<Record<string, number>>(
        "SELECT * FROM activities WHERE beverage_id = ? AND type = 'Create'",
      )
      .get(entry.id))!;
    const row = {
      id: activity.id!,
      actorId: activity.actor_id!,
      type: 'Create' as const,
      beverageId: entry.id,
      objectActorId: null,
      shareId: null,
      remoteEntryId: null,
      payload: null,
      createdAt: new Date(activity.created_at!),
    };
    const first = await feed.fanOut(row);
    expect(await items()).toBe(FAN_OUT_CHUNK);
    const second = await feed.fanOut(row, first);
    expect(await items()).toBe(2 * FAN_OUT_CHUNK);
    expect(second).toBeGreaterThan(first!);
    expect(await feed.fanOut(row, second)).toBeUndefined();
    expect(await items()).toBe(FOLLOWERS);
    expect(await feed.fanOut(row)).toBe(first); // again from the start: nothing twice
    expect(await items()).toBe(FOLLOWERS);
  });
});

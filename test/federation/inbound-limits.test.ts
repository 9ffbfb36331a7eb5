import { reset, type LogRecord } from '@logtape/logtape';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../helpers/logs.ts';
import {
  activities,
  count,
  deliver,
  follow,
  remoteEntry,
  settled,
  startWorld,
  type World,
} from './inbox-entries-world.ts';

/**
 * The bounds on what a remote server stores, with small limits (3 entries per actor and 5 per
 * server per hour, 4 stored entries per actor): a fake remote server on loopback sends real
 * signed Creates until it is refused with 429.
 */

let world: World;
const logged: LogRecord[] = [];
const COOPER = { username: 'cooper', fullName: 'Cooper' };
const DRAPER = { username: 'draper', fullName: 'Draper' };

beforeAll(async () => {
  await captureLogs('info', logged);
  world = await startWorld(
    ['alice'],
    {},
    {
      VAULT_INBOUND_PER_ACTOR_HOUR: '3',
      VAULT_INBOUND_PER_SERVER_HOUR: '5',
      VAULT_REMOTE_ENTRIES_PER_ACTOR: '4',
    },
  );
  world.remote.addAccount('draper', { name: 'Draper' });
  // Fedify loads on the first delivery; loaded here, no delivery waits for it on a busy machine.
  await world.vault.ctx.federation.load();
  await follow(world, 'alice');
  await follow(world, 'alice', `${world.remote.origin}/users/cooper`);
  await follow(world, 'alice', `${world.remote.origin}/users/draper`);
});
afterAll(async () => {
  await world?.close();
  await reset();
});

const refusals = (who: string) =>
  logged.filter(
    (record) =>
      record.rawMessage.toString().startsWith('Refusing incoming') && record.properties.who === who,
  );

async function send(author: typeof COOPER | undefined, from = 'barrel') {
  const create = await activities(world, author).create(remoteEntry());
  return world.remote.post(from, `${world.vault.url}/inbox`, create);
}

describe('the rate limits on incoming entries', () => {
  it('counts no delivery whose signature fails: forged ones spend no allowance', async () => {
    // Forged deliveries in draper's name (signed with barrel's key) are refused with 401...
    const create = await activities(world, DRAPER).create(remoteEntry());
    for (let i = 0; i < 4; i++) {
      const res = await world.remote.post('barrel', `${world.vault.url}/inbox`, create, {
        keyId: `${world.remote.origin}/users/draper#main-key`,
      });
      expect(res.status).toBe(401);
    }
    // ...and spent nothing of draper's 3: its own delivery is taken.
    await deliver(world, await activities(world, DRAPER).create(remoteEntry()), 'draper');
    await settled(world);
    expect(await count(world, 'remote_entries')).toBe(1);
  });

  it('refuses the entries of an actor beyond its hourly limit with 429 and Retry-After, storing nothing more', async () => {
    for (let i = 0; i < 3; i++) await deliver(world, await activities(world).create(remoteEntry()));
    await settled(world);
    expect(await count(world, 'remote_entries')).toBe(4);

    for (let i = 0; i < 3; i++) {
      const res = await send(undefined);
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3000);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(res.json().message).toBe(
        `Refused: entries from ${world.barrel}, more than 3 in an hour. Try again later.`,
      );
    }
    // The personal inbox counts the same.
    const personal = await world.remote.post(
      'barrel',
      `${world.vault.url}/users/alice/inbox`,
      await activities(world).create(remoteEntry()),
    );
    expect(personal.status).toBe(429);
    await settled(world);
    expect(await count(world, 'remote_entries')).toBe(4);
  });

  it('logs the refusal once per actor and window, not once per request', () => {
    expect(refusals(world.barrel)).toHaveLength(1);
    expect(refusals(world.barrel)[0]!.level).toBe('warning');
  });

  it('refuses every actor of a server beyond the server limit, and logs that once', async () => {
    // 1 of draper's and 3 of barrel's so far: cooper's first is the server's 5th.
    await deliver(world, await activities(world, COOPER).create(remoteEntry()), 'cooper');
    for (const [author, from] of [
      [COOPER, 'cooper'],
      [DRAPER, 'draper'],
    ] as const) {
      const res = await send(author, from);
      expect(res.status).toBe(429);
      expect(res.json().message).toMatch(`from ${world.remote.host}, more than 5 in an hour`);
    }
    await settled(world);
    expect(await count(world, 'remote_entries')).toBe(5);
    expect(refusals(world.remote.host)).toHaveLength(1);
  });
});

describe('the volume cap on stored entries', () => {
  it('refuses a new entry from an actor who has the most entries stored already', async () => {
    const limits = world.vault.ctx.inboundLimits;
    // A fresh window for another server's actor, holding 4 stored entries already.
    const actorUri = 'https://cellar.example/users/vintner';
    const stored = world.vault.ctx.database.database;
    const t = Date.now();
    const actorId = (await stored
      .prepare(
        `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, created_at, updated_at)
         VALUES ('remote', ?, ?, 'Vintner', '@vintner@cellar.example', ?, ?) RETURNING id`,
      )
      .pluck<number>()
      .get(actorUri, `${actorUri}/inbox`, t, t))!;
    for (let i = 0; i < 4; i++) {
      await world.vault.ctx.remoteEntries.store(
        actorId,
        {
          noteUri: `${actorUri}/notes/${i}`,
          type: 'WINE',
          name: `Wine ${i}`,
          subtype: 'Red',
          makerName: '',
          rating: 3,
          notes: '',
          status: 'TRIED',
          publishedAt: new Date(t),
          updatedAt: new Date(t),
          photoUrl: null,
        },
        undefined,
      );
    }
    await expect(limits.check('entry', actorUri, 'cellar.example')).rejects.toThrow(
      `Refused: entries from ${actorUri}, 4 of its entries are stored here already. Try again later.`,
    );
    // A reply or a cheer is not an entry: the cap does not refuse them.
    await expect(limits.check('reply', actorUri, 'cellar.example')).resolves.toBeUndefined();
  });
});

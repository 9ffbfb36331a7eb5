import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVITY_TYPES, type ActivityRow, type ActivityType } from '../../src/db/schema/index.ts';
import { ACTIVITY_KINDS, orderingKeyOf, payloadOf } from '../../src/outbox/activities.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The codecs of the outbox's activity kinds (src/outbox/activities.ts, kinds/): every kind has
 * one, every reader decodes through it, and the outbox hands off no activity of a remote actor.
 */
const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Reading an activity's payload by hand: its field, or JSON.parse of something named payload. */
const handRead = /\.payload\b|JSON\.parse\([^)]*payload/i;

/** The files outside src/outbox/ that read a payload by hand. */
function handReaders(
  files: readonly string[],
  read = (file: string) => readFileSync(join(root, file), 'utf8'),
) {
  return files.filter((file) => !file.startsWith('src/outbox/') && handRead.test(read(file)));
}

function row(type: ActivityType, payload: unknown, fields: Partial<ActivityRow> = {}): ActivityRow {
  return {
    id: 1,
    actorId: 1,
    type,
    beverageId: null,
    objectActorId: null,
    shareId: null,
    remoteEntryId: null,
    payload: payload === undefined ? null : JSON.stringify(payload),
    createdAt: new Date(0),
    ...fields,
  };
}

describe('the activity kinds', () => {
  it('give every activity type its codec', () => {
    expect(Object.keys(ACTIVITY_KINDS).sort()).toEqual([...ACTIVITY_TYPES].sort());
  });

  it('are the only readers of a payload in src/ and federation/', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('federation')];
    expect(files).toContain('src/feed/service.ts');
    expect(handReaders(files)).toEqual([]);
    // The check sees the forms a reader by hand would take.
    const samples: Record<string, string> = {
      'federation/a.ts':
        'const { blockId } = JSON.parse(activity.payload) as { blockId?: unknown };',
      'src/b.ts': 'if (row.payload === null) return undefined;',
      'src/c.ts': 'const x = JSON.parse(payload ?? "null");',
      'src/outbox/d.ts': 'JSON.parse(activity.payload)',
      'src/e.ts': 'JSON.parse(progress)',
    };
    expect(handReaders(Object.keys(samples), (file) => samples[file]!)).toEqual([
      'federation/a.ts',
      'src/b.ts',
      'src/c.ts',
    ]);
  });

  it('read what writers wrote, and nothing from a missing, unreadable or foreign payload', () => {
    expect(payloadOf(row('Like', { cheerId: 7 }), 'Like')).toEqual({ cheerId: 7 });
    expect(payloadOf(row('Like', { cheerId: 'seven' }), 'Like')).toBeUndefined();
    expect(payloadOf(row('Like', undefined), 'Like')).toBeUndefined();
    expect(payloadOf({ ...row('Like', undefined), payload: '{not json' }, 'Like')).toBeUndefined();
    expect(payloadOf(row('UndoLike', { cheerId: 7 }), 'Like')).toBeUndefined();
    expect(payloadOf(row('Update', { federation: 'Create' }), 'Update')).toEqual({
      federation: 'Create',
    });
    expect(payloadOf(row('Update', undefined), 'Update')).toBeUndefined();
  });

  it('read the forms earlier versions wrote', () => {
    // An entry's Delete from before `federated`: sent whatever the entry was.
    expect(payloadOf(row('Delete', { id: 3, userId: 2 }), 'Delete')).toEqual({
      id: 3,
      userId: 2,
      federated: true,
    });
    expect(payloadOf(row('Undo', { follow: 'https://x/f/1', as: 'Reject' }), 'Undo')).toEqual({
      follow: 'https://x/f/1',
      as: 'Reject',
    });
  });

  it('order the hand-offs of one thing by one key, whatever the kind', () => {
    expect(orderingKeyOf(row('Create', undefined, { beverageId: 3 }))).toBe('entry:3');
    expect(orderingKeyOf(row('Delete', { id: 3, userId: 2, federated: true }))).toBe('entry:3');
    expect(orderingKeyOf(row('CreateTasting', { tastingId: 4 }))).toBe('tasting:4');
    expect(orderingKeyOf(row('DeleteTasting', { tastingId: 4 }))).toBe('tasting:4');
    expect(orderingKeyOf(row('Follow', { follow: 'u' }))).toBe(
      orderingKeyOf(row('Undo', { follow: 'u' })),
    );
    expect(orderingKeyOf(row('Comment', { commentId: 5 }))).toBe(
      orderingKeyOf(row('DeleteComment', { commentId: 5 })),
    );
    expect(orderingKeyOf(row('Offer', {}))).toBeUndefined();
  });
});

describe('the outbox', () => {
  let vault: TestVault;
  afterEach(() => vault.close());

  async function withRemoteActor() {
    vault = createTestVault();
    const alice = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
    const { ctx } = vault;
    const local = await ctx.actors.localActorId(alice.id);
    const remote = await ctx.actors.saveRemote(
      {
        uri: 'https://mastodon.example/users/bob',
        inboxUrl: 'https://mastodon.example/users/bob/inbox',
        sharedInboxUrl: null,
        handle: '@bob@mastodon.example',
        displayName: 'Bob',
        summary: '',
        avatarUrl: null,
      },
      Date.now(),
    );
    return { ctx, local, remote };
  }

  it('hands off a local user’s activity, and never a remote actor’s', async () => {
    const { ctx, local, remote } = await withRemoteActor();
    const asked: { actorId: number; userId: number }[] = [];
    const sent: number[] = [];
    ctx.outbox.federate<number>({
      name: 'test',
      types: ['Follow', 'Like'],
      job: async (activity, sender) => {
        asked.push({ actorId: activity.actorId, userId: sender.userId });
        return activity.id;
      },
      send: async (id) => {
        sent.push(id);
      },
    });
    const record = (actorId: number) =>
      ctx.database.transaction(async () => [
        await ctx.outbox.record({ actorId, type: 'Follow', createdAt: Date.now() }),
        await ctx.outbox.record({
          actorId,
          type: 'Like',
          payload: { cheerId: 1 },
          createdAt: Date.now(),
        }),
      ]);
    await record(remote);
    const mine = await record(local);
    await ctx.outbox.idle();
    const alice = (await ctx.actors.userIdOf(local))!;
    expect(asked).toEqual([
      { actorId: local, userId: alice },
      { actorId: local, userId: alice },
    ]);
    expect(sent.sort()).toEqual(mine.sort());
    expect(await ctx.database.database.prepare('SELECT count(*) FROM outbox').pluck().get()).toBe(
      0,
    );
  });

  it('refuses to record a kind only local users emit with a remote actor', async () => {
    const { ctx, local, remote } = await withRemoteActor();
    const count = () =>
      ctx.database.database.prepare('SELECT count(*) FROM activities').pluck<number>().get();
    const before = await count();
    await expect(
      ctx.database.transaction(async () =>
        ctx.outbox.record({ actorId: remote, type: 'UpdateProfile', createdAt: Date.now() }),
      ),
    ).rejects.toThrow(/local user/);
    expect(await count()).toBe(before);
    await ctx.database.transaction(async () =>
      ctx.outbox.record({ actorId: local, type: 'UpdateProfile', createdAt: Date.now() }),
    );
    expect(await count()).toBe(Number(before) + 1);
  });
});

import { expect } from 'vitest';
import { activityPageSchema, type RemoteActivityItem } from '../../contract/social.ts';
import {
  createNoteActivity,
  deleteNoteActivity,
  entryNote,
  updateNoteActivity,
  type NoteEntry,
} from '../../federation/note.ts';
import {
  startFakeRemote,
  type FakeRemote,
  type FakeRemoteOptions,
  type Json,
} from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * What the inbox-entries tests share: a real vault on a loopback port, a fake remote vault
 * ("barrel" publishes entries as another vault would: the JSON is built with the vault's own
 * Note builders on the fake's origin, then signed and posted by the fake), local users who
 * follow it (rows written directly: an ACCEPTED follow of a remote actor), and readers of the
 * feed through the API.
 */
export interface World {
  vault: TestServer;
  remote: FakeRemote;
  /** The remote actor's id. */
  barrel: string;
  users: Record<string, { id: number; cookie: string }>;
  close(): Promise<void>;
}

export const AUTHOR = { username: 'barrel', fullName: 'Barrel Keeper' };

export async function startWorld(
  usernames: string[],
  /** How the fake remote serves (https, for lookups of a handle through WebFinger). */
  remoteOptions: FakeRemoteOptions = {},
  env: Record<string, string> = {},
): Promise<World> {
  const vault = await startTestServer({ allowPrivateAddress: true, env });
  const remote = await startFakeRemote(remoteOptions);
  remote.addAccount('barrel', { name: 'Barrel Keeper' });
  remote.addAccount('cooper', { name: 'Cooper' });
  const users: World['users'] = {};
  for (const username of usernames) {
    const password = `${username}-password`;
    const row = await vault.createUser({ username, password, activityPubEnabled: true });
    users[username] = { id: row.id, cookie: await login(vault, username, password) };
  }
  return {
    vault,
    remote,
    barrel: `${remote.origin}/users/barrel`,
    users,
    async close() {
      await Promise.all([vault.close(), remote.close()]);
    },
  };
}

export async function login(
  vault: TestServer,
  username: string,
  password: string,
): Promise<string> {
  const res = await fetch(`${vault.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: vault.url },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.includes('vault_session='));
  return cookie!.split(';')[0]!;
}

/** The remote actor's row (as the follow flow stores it) and a follow of it by a local user. */
export async function follow(
  world: World,
  username: string,
  actorUri = world.barrel,
  state: 'ACCEPTED' | 'PENDING' = 'ACCEPTED',
): Promise<void> {
  const db = world.vault.ctx.database.database;
  const t = Date.now();
  const name = new URL(actorUri).pathname.split('/').pop()!;
  await db
    .prepare(
      `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, created_at, updated_at)
       VALUES ('remote', ?, ?, ?, ?, ?, ?) ON CONFLICT (uri) DO NOTHING`,
    )
    .run(
      actorUri,
      `${actorUri}/inbox`,
      name === 'barrel' ? 'Barrel Keeper' : name,
      `@${name}@${world.remote.host}`,
      t,
      t,
    );
  const followed = await db
    .prepare('SELECT id FROM actors WHERE uri = ?')
    .pluck<number>()
    .get(actorUri);
  const follower = await world.vault.ctx.actors.localActorId(world.users[username]!.id);
  await db
    .prepare(
      `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
       VALUES (?, ?, ?, ?, ?)`,
    )
    .run(
      follower,
      followed,
      state,
      `${world.vault.url}/follows/${follower}-${String(followed)}`,
      t,
    );
}

let nextEntryId = 1;

/** An entry of barrel's, as another vault's Note builders take it. */
export function remoteEntry(changes: Partial<NoteEntry> = {}): NoteEntry {
  return {
    id: nextEntryId++,
    type: 'WHISKEY',
    name: 'Lagavulin 16',
    subtype: 'Scotch',
    makerName: 'Lagavulin',
    rating: 4,
    notes: 'Peat and smoke.',
    status: 'TRIED',
    inCellar: false,
    createdAt: new Date('2026-03-01T18:30:00Z'),
    updatedAt: new Date('2026-03-01T18:30:00Z'),
    photo: null,
    ...changes,
  };
}

const json = async (activity: { toJsonLd(o: { format: 'compact' }): Promise<unknown> }) =>
  (await activity.toJsonLd({ format: 'compact' })) as Json;

/** The Create / Update / Delete another vault sends for `entry` (ids on the fake's origin). */
export const activities = (world: World, author = AUTHOR) => ({
  /** The Note alone, as its id serves it (with its own @context). */
  note: async (entry: NoteEntry) =>
    (await entryNote({ entry, author, origin: world.remote.origin }).toJsonLd()) as Json,
  create: (entry: NoteEntry) =>
    json(createNoteActivity({ entry, author, origin: world.remote.origin })),
  update: (entry: NoteEntry) =>
    json(updateNoteActivity({ entry, author, origin: world.remote.origin })),
  delete: (entry: NoteEntry) =>
    json(
      deleteNoteActivity({
        origin: world.remote.origin,
        username: author.username,
        entryId: entry.id,
        deletedAt: new Date(),
      }),
    ),
});

/** Posts an activity signed by a fake account; expects 202. */
export async function deliver(world: World, activity: Json, from = 'barrel', inbox?: string) {
  const res = await world.remote.post(from, inbox ?? `${world.vault.url}/inbox`, activity);
  expect(res.status, res.body).toBe(202);
}

/** Waits until the federation queue has handled everything (the inbox is asynchronous). */
export async function settled(world: World, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const federation = world.vault.ctx.federation.current();
    if (!federation) return; // never loaded: nothing reached Fedify
    const depth = await federation.queue.getDepth();
    if (depth.queued === 0 && federation.queue.inFlight === 0) return;
    if (Date.now() > deadline) throw new Error('the federation queue did not settle');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The caller's feed page through the API, parsed with the contract. */
export async function feed(world: World, username: string, query = '') {
  const res = await fetch(`${world.vault.url}/api/activity${query}`, {
    headers: { cookie: world.users[username]!.cookie },
  });
  expect(res.status).toBe(200);
  return activityPageSchema.parse(await res.json());
}

/** The remote items of a user's feed. */
export async function remoteItems(world: World, username: string): Promise<RemoteActivityItem[]> {
  return (await feed(world, username)).activities.filter(
    (item): item is RemoteActivityItem => item.kind === 'remote',
  );
}

export async function count(
  world: World,
  table: 'remote_entries' | 'feed_items' | 'activities',
): Promise<number> {
  const db = world.vault.ctx.database.database;
  return (await db.prepare(`SELECT count(*) FROM ${table}`).pluck<number>().get())!;
}

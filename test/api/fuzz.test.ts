import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/sessions.ts';
import type { UserRow } from '../../src/db/schema/index.ts';
import { changedTables, snapshotDatabase } from '../helpers/db-snapshot.ts';
import {
  PASSWORD,
  USERNAME,
  fuzzRequest,
  type Body,
  type FuzzRequest,
  type Param,
  type Ref,
} from '../helpers/fuzz-requests.ts';
import { jpeg } from '../helpers/images.ts';
import { allRoutes, fillPath, routeKey, type Route } from '../helpers/routes.ts';
import { createTestVault } from '../helpers/vault.ts';

/**
 * Every route of the app's table and the ActivityPub inboxes, under generated input: any
 * request is answered with a 2xx, or with a 4xx carrying a JSON `{ message }` and leaving every
 * row of the database as it was. Reproducible: a fixed seed, FUZZ_SEED and FUZZ_RUNS (runs per
 * route) override it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const vault = createTestVault();
const routes = allRoutes(vault.app);
const db = vault.ctx.database.database;

type Person = 'alice' | 'bob' | 'admin';
interface Fixture {
  users: Record<Person, UserRow & { password: string }>;
  tokens: Record<Person, string>;
  entries: Record<'alice' | 'bob', number>;
  keys: Record<'alice' | 'bob', number>;
  image: Buffer;
  /** Alice's entry with a photo, and her avatar: their stored file names. */
  photo: { entry: number; name: string };
  avatar: string;
}
let fx: Fixture;

beforeAll(async () => {
  const users = {
    alice: await vault.createUser({ username: 'alice', activityPubEnabled: true }),
    bob: await vault.createUser({ username: 'bob' }),
    admin: await vault.createUser({ username: 'root_admin', role: 'ADMIN' }),
  };
  fx = {
    users,
    tokens: { alice: '', bob: '', admin: '' },
    entries: { alice: 0, bob: 0 },
    keys: { alice: 0, bob: 0 },
    image: await jpeg(64, 48),
    photo: { entry: 0, name: '' },
    avatar: '',
  };
  await repair();
  // A federated user's key pair is made the first time anything asks for the actor, and kept.
  const actor = await vault.request('/users/alice', {
    headers: { accept: 'application/activity+json' },
  });
  if (actor.status !== 200) throw new Error(`actor: ${actor.status}`);
  // So is the server's own (instance) actor's, which signs the key fetches of the shared inbox.
  const instance = await vault.request('/users/instance.actor', {
    headers: { accept: 'application/activity+json' },
  });
  if (instance.status !== 200) throw new Error(`instance actor: ${instance.status}`);
});
afterAll(() => vault.close());

const exists = async (table: string, column: string, value: unknown) =>
  (await db.prepare(`SELECT 1 FROM ${table} WHERE ${column} = ?`).get(value)) !== undefined;

/**
 * Puts back what a successful request may have changed (a session ended, an entry or a key
 * removed, a password, role or switch changed), so that every run meets the same fixture.
 */
async function repair() {
  for (const who of ['alice', 'bob', 'admin'] as const) {
    const original = fx.users[who];
    const row = (await vault.ctx.users.findById(original.id))!;
    const fields = ['role', 'passwordHash', 'activityPubEnabled'] as const;
    if (fields.some((f) => row[f] !== original[f])) {
      await vault.ctx.users.update(original.id, {
        role: original.role,
        passwordHash: original.passwordHash,
        activityPubEnabled: original.activityPubEnabled,
      });
    }
    if (!fx.tokens[who] || !(await exists('sessions', 'id_hash', hashToken(fx.tokens[who])))) {
      const meta = { userAgent: 'fuzz', ipAddress: '127.0.0.1' };
      fx.tokens[who] = (await vault.ctx.sessions.start(original.id, meta)).token;
    }
  }
  const alice = (await vault.ctx.users.findById(fx.users.alice.id))!;
  if (alice.avatarPath !== `media/avatars/${fx.avatar}`) {
    const updated = await vault.ctx.profiles.update(alice, {}, { replace: fx.image });
    fx.avatar = updated.avatarPath!.replace('media/avatars/', '');
  }
  const photoPath = await db
    .prepare('SELECT photo_path FROM beverages WHERE id = ?')
    .pluck()
    .get(fx.photo.entry);
  if (photoPath !== `media/${fx.photo.name}`) {
    const input = { name: 'Photographed', type: 'WHISKEY' as const };
    const entry = await vault.ctx.beverages.create(alice, input, fx.image);
    fx.photo = { entry: entry.id, name: entry.photoPath!.replace('media/', '') };
  }
  for (const who of ['alice', 'bob'] as const) {
    const user = fx.users[who];
    if (!(await exists('beverages', 'id', fx.entries[who]))) {
      const input = { name: `${who}'s dram`, type: 'WHISKEY' as const };
      fx.entries[who] = (await vault.ctx.beverages.create(user, input)).id;
    }
    if (!(await exists('webauthn_credentials', 'id', fx.keys[who]))) {
      fx.keys[who] = (await db
        .prepare(
          `INSERT INTO webauthn_credentials (user_id, credential_id, public_key, user_handle,
             device_type, created_at) VALUES (?, ?, ?, 'aGFuZGxl', 'singleDevice', ?)
           RETURNING id`,
        )
        .pluck<number>()
        .get(user.id, randomBytes(16).toString('base64url'), Buffer.from([1]), Date.now()))!;
      await vault.ctx.users.update(user.id, { webauthnEnabled: true });
    }
  }
}

function resolve(ref: Ref, actor: FuzzRequest['actor']): string {
  const self: Person = actor === 'admin' ? 'admin' : 'alice';
  const handle = (who: Person) => hashToken(fx.tokens[who]).slice(0, 16);
  switch (ref) {
    case 'ownEntry':
      return String(fx.entries.alice);
    case 'otherEntry':
      return String(fx.entries.bob);
    case 'ownUser':
      return String(fx.users[self].id);
    case 'otherUser':
      return String(fx.users.bob.id);
    case 'adminUser':
      return String(fx.users.admin.id);
    case 'ownKey':
      return String(fx.keys.alice);
    case 'otherKey':
      return String(fx.keys.bob);
    case 'ownSession':
      return handle(self);
    case 'otherSession':
      return handle('bob');
    case 'ownUsername':
      return 'alice';
    case 'otherUsername':
      return 'bob';
    case 'photo':
      return fx.photo.name;
    case 'avatar':
      return fx.avatar;
  }
}

const paramValue = (p: Param, actor: FuzzRequest['actor']) =>
  'ref' in p ? resolve(p.ref, actor) : p.raw;

/** The body as sent, with its natural content type (form data is encoded as on the wire). */
async function encode(
  body: Body,
  who: { username: string; password: string },
): Promise<{ data?: Uint8Array | string; type?: string }> {
  const fill = (text: string) =>
    text.replaceAll(PASSWORD, who.password).replaceAll(USERNAME, who.username);
  switch (body.kind) {
    case 'none':
      return {};
    case 'json': {
      const text = JSON.stringify(body.value) ?? 'null';
      const filled = text
        .replaceAll('\\u0000password', who.password)
        .replaceAll('\\u0000username', who.username);
      return { data: filled, type: 'application/json' };
    }
    case 'text':
      return { data: body.text, type: 'application/json' };
    case 'bytes':
      return { data: new Uint8Array(body.bytes), type: 'application/octet-stream' };
    case 'form': {
      const form = new FormData();
      for (const [name, value] of body.fields) {
        if (typeof value === 'string') form.append(name, fill(value));
        else form.append(name, new Blob([new Uint8Array(value)]), 'upload.jpg');
      }
      const encoded = new Response(form);
      const type = encoded.headers.get('content-type') ?? undefined;
      return { data: new Uint8Array(await encoded.arrayBuffer()), type };
    }
  }
}

const isInbox = (route: Route) => route.path.endsWith('/inbox') || route.path === '/inbox';
const SIGNATURES = {
  fake: ['signature', 'keyId="https://remote.invalid/actor#key",headers="date",signature="AAAA"'],
  input: ['signature-input', 'sig1=("@method");keyid="http://127.0.0.1:1/key"'],
} as const;

async function send(route: Route, r: FuzzRequest) {
  const params = Object.fromEntries(
    Object.entries(r.params).map(([name, p]) => [name, paramValue(p, r.actor)]),
  );
  const path = fillPath(route.path, params) + r.query;
  const person: Person | undefined =
    r.actor === 'anonymous' ? undefined : r.actor === 'admin' ? 'admin' : 'alice';
  const { data, type } = await encode(r.body, fx.users[person ?? 'alice']);
  const headers = new Headers();
  const cookies = [person && `vault_session=${fx.tokens[person]}`, r.junkCookie].filter(Boolean);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  if (r.origin === 'own') headers.set('origin', vault.origin);
  if (r.origin === 'cross') headers.set('origin', 'https://evil.example');
  if (r.origin === 'cross-fetch-site') headers.set('sec-fetch-site', 'cross-site');
  const contentType = r.contentType === 'right' ? type : r.contentType;
  if (contentType && contentType !== 'missing') headers.set('content-type', contentType);
  if (isInbox(route) && r.signature !== 'none') {
    const [name, value] = SIGNATURES[r.signature];
    headers.set(name, value);
    headers.set('date', new Date().toUTCString());
  }
  const url = new URL(path, vault.origin).toString();
  const init: RequestInit = { method: route.method, headers };
  if (data !== undefined) init.body = data;
  return { res: await vault.app.request(url, init), path };
}

/** Whether a body holds the actor's real password. */
const carriesPassword = (body: Body) =>
  (body.kind === 'json' && JSON.stringify(body.value)?.includes('\\u0000password')) ||
  (body.kind === 'form' && body.fields.some(([, v]) => v === PASSWORD));

/**
 * Columns left out of the before/after comparison. A session's last use is touched by any
 * request (at most once a minute). A right password is recorded on the session even when a
 * later step refuses the request, and a registration ceremony is single-use: a refused
 * verification ends it too.
 */
function ignoredFor(route: Route, r: FuzzRequest): Record<string, string[]> {
  return {
    sessions: ['last_seen_at', ...(carriesPassword(r.body) ? ['reauthenticated_at'] : [])],
    ...(route.path.endsWith('/registration/verify') && { webauthn_registrations: ['*'] }),
  };
}

async function check(route: Route, r: FuzzRequest) {
  const ignore = ignoredFor(route, r);
  // Activities of earlier accepted requests are delivered in the background: let that finish.
  await vault.ctx.outbox.idle();
  const before = await snapshotDatabase(db, ignore);
  const { res, path } = await send(route, r);
  const shape = `${route.method} ${path.slice(0, 120)} as ${r.actor}`;
  const text = await res.text();
  expect(res.status, `${shape}: ${text.slice(0, 200)}`).toBeLessThan(500);
  if (res.status >= 200 && res.status < 300) return repair();
  expect(res.status, `${shape}: neither 2xx nor 4xx`).toBeGreaterThanOrEqual(400);
  expect(res.headers.get('content-type'), shape).toMatch(/^application\/json/);
  const message: unknown = (JSON.parse(text) as { message?: unknown }).message;
  expect(typeof message === 'string' && message.length > 0, `${shape}: ${text}`).toBe(true);
  if (isInbox(route) && r.signature === 'none') expect(res.status, shape).toBe(401);
  const changed = changedTables(before, await snapshotDatabase(db, ignore));
  expect(changed, `${shape} was refused (${res.status}) but changed rows`).toEqual([]);
}

describe('every route under arbitrary input', () => {
  it('enumerates the API, the images and both inboxes from the app itself', () => {
    const keys = routes.map(routeKey);
    expect(keys).toContain('POST /api/auth/login');
    expect(keys).toContain('GET /media/:name');
    expect(keys).toContain('POST /users/:username/inbox');
    expect(keys.filter((k) => k.includes('*'))).toEqual([]);
  });

  it.each(routes.map((route) => [routeKey(route), route] as const))(
    '%s answers with a 4xx JSON message or a 2xx, never a 500, and a refusal changes no row',
    async (_, route) => {
      await fc.assert(
        fc.asyncProperty(fuzzRequest(route), (r) => check(route, r)),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
  );
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../contract/routes/index.ts';
import type { RouteDef, TokenScope } from '../../contract/routes/route.ts';
import { hashToken } from '../../src/auth/sessions.ts';
import type { UserRow } from '../../src/db/schema/index.ts';
import {
  AUTHORIZATION,
  type Actor,
  type Expected,
  type RequestParts,
  type Resource,
  type Row,
} from '../helpers/authorization-table.ts';
import { jpeg } from '../helpers/images.ts';
import { allRoutes, fillPath, routeKey } from '../helpers/routes.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Every route of the app (and both inboxes) against every actor, checked against the table in
 * test/helpers/authorization-table.ts, and against the admin's access tokens of both scopes. The
 * resource of an owner's route is made afresh for each actor, so that one actor's request never
 * decides another's.
 */
let vault: TestVault;
type Person = Exclude<Actor, 'anonymous'>;
let people: Record<Person, UserRow & { password: string }>;
let adminTokens: Record<TokenScope, string>;
let photo: string;
let avatar: string;
let counter = 0;

beforeAll(async () => {
  // Every token request of the admin counts against one budget: not the question here.
  vault = createTestVault({ env: { VAULT_TOKEN_REQUESTS_PER_MINUTE: '100000' } });
  people = {
    owner: await vault.createUser({ username: 'olive', activityPubEnabled: true }),
    other: await vault.createUser({ username: 'oscar' }),
    admin: await vault.createUser({ username: 'root_admin', role: 'ADMIN' }),
  };
  const image = await jpeg(64, 48);
  const entry = await vault.ctx.beverages.create(
    people.owner,
    { name: 'Photographed', type: 'WHISKEY' },
    image,
  );
  photo = entry.photoPath!.replace('media/', '');
  const withAvatar = await vault.ctx.profiles.update(people.owner, {}, { replace: image });
  avatar = withAvatar.avatarPath!.replace('media/avatars/', '');
  const tokenOf = async (scope: TokenScope) =>
    (await vault.ctx.tokens.create(people.admin, { name: `Admin's ${scope}`, scope })).secret;
  adminTokens = { read: await tokenOf('read'), write: await tokenOf('write') };
});
afterAll(() => vault.close());

const meta = { userAgent: 'authorization matrix', ipAddress: '127.0.0.1' };

/** A new session for a person, having entered the password just now (for second factors). */
async function sessionOf(person: Person): Promise<string> {
  const { token, session } = await vault.ctx.sessions.start(people[person].id, meta);
  await vault.ctx.sessions.markReauthenticated(session.idHash);
  return `vault_session=${token}`;
}

/** A security key of the owner, as registration would have stored it. */
async function ownersKey(): Promise<number> {
  const owner = people.owner;
  const id = await vault.ctx.database.database
    .prepare(
      `INSERT INTO webauthn_credentials (user_id, credential_id, public_key, user_handle,
         device_type, created_at) VALUES (?, ?, ?, 'aGFuZGxl', 'singleDevice', ?) RETURNING id`,
    )
    .pluck<number>()
    .get(owner.id, randomBytes(16).toString('base64url'), Buffer.from([1]), Date.now());
  await vault.ctx.users.update(owner.id, { webauthnEnabled: true });
  return Number(id);
}

async function makeResource(resource: Resource | undefined): Promise<string> {
  const owner = people.owner;
  switch (resource) {
    case undefined:
      return '';
    case 'entry':
      return String(
        (await vault.ctx.beverages.create(owner, { name: 'Ardbeg', type: 'WHISKEY' })).id,
      );
    case 'comment': {
      const entry = await vault.ctx.beverages.create(owner, { name: 'Talked of', type: 'WINE' });
      const ref = { kind: 'local' as const, id: entry.id };
      const comment = await vault.ctx.conversation.comment(owner, ref, 'My own note');
      return `${entry.id}/${comment.id}`;
    }
    case 'session':
      return hashToken((await vault.ctx.sessions.start(owner.id, meta)).token).slice(0, 16);
    case 'key':
      return String(await ownersKey());
    case 'user':
      return String(owner.id);
    case 'photo':
      return photo;
    case 'avatar':
      return avatar;
    case 'token':
      return String(
        (await vault.ctx.tokens.create(owner, { name: 'Owned', scope: 'read' })).token.id,
      );
    case 'place':
      return String((await vault.ctx.places.create(owner.id, { name: `Shelf ${++counter}` })).id);
    case 'bottle': {
      const entry = await vault.ctx.beverages.create(owner, { name: 'Kept', type: 'WINE' });
      const bottle = await vault.ctx.bottles.add(owner, entry.id, { quantity: 2, sizeMl: 750 });
      return `${entry.id}/${bottle.id}`;
    }
    case 'tasting': {
      const entry = await vault.ctx.beverages.create(owner, { name: 'Tasted', type: 'WINE' });
      const tasting = await vault.ctx.tastings.create(owner, entry.id, { rating: 3 });
      return `${entry.id}/${tasting.id}`;
    }
  }
}

/** Leaves no second factor behind for the next case. */
async function removeSecondFactors() {
  await vault.ctx.database.database.exec(
    'DELETE FROM webauthn_credentials; DELETE FROM totp_secrets; DELETE FROM backup_codes;',
  );
  for (const person of Object.values(people)) {
    await vault.ctx.users.update(person.id, { webauthnEnabled: false, totpEnabled: false });
  }
}

/** Who sends a request: an actor by session (or nobody), or an admin's access token. */
type Sender = Actor | { adminToken: TokenScope };

async function send(method: string, pattern: string, sender: Sender, row: Row): Promise<Response> {
  const actor: Actor = typeof sender === 'string' ? sender : 'admin';
  const person = actor === 'anonymous' ? 'owner' : actor;
  const parts: RequestParts =
    row.request?.({
      resource: await makeResource(row.resource),
      username: people[person].username,
      password: people[person].password,
      unique: String(++counter),
    }) ?? {};
  const path = fillPath(pattern, parts.params ?? {});
  const headers = new Headers();
  let cookie: string | undefined;
  if (typeof sender !== 'string') {
    headers.set('authorization', `Bearer ${adminTokens[sender.adminToken]}`);
  } else if (actor !== 'anonymous') {
    cookie = await sessionOf(actor);
  }
  const init: RequestInit & { cookie?: string } = { method, headers, ...(cookie && { cookie }) };
  if (parts.json !== undefined) {
    headers.set('content-type', 'application/json');
    init.body = JSON.stringify(parts.json);
  } else if (parts.form) {
    const form = new FormData();
    for (const [name, value] of Object.entries(parts.form)) form.append(name, value);
    init.body = form;
  }
  return vault.request(path, init);
}

/**
 * What an admin's access token gets: what a plain user (`other`) gets on every route a token
 * may call (with the write scope for a `write` route), and 403 on every other /api route. A
 * token acts as its user with no admin power, so it never reaches another user's things.
 */
function expectedOfAdminToken(method: string, pattern: string, scope: TokenScope, row: Row) {
  if (!pattern.startsWith('/api/')) return row.other;
  const key = `${method} ${pattern.slice('/api'.length).replace(/:(\w+)/g, '{$1}')}`;
  const access = (apiRoutes as Record<string, RouteDef>)[key]?.access;
  if (access === 'read' || (access === 'public' && method === 'GET')) return row.other;
  if (access === 'write' && scope === 'write') return row.other;
  return 403;
}

function meets(expected: Expected, status: number): boolean {
  if (status >= 500) return false;
  if (expected === 'ok') return status >= 200 && status < 300;
  if (expected === 'allowed') return status !== 401 && status !== 403;
  return status === expected;
}

describe('the authorization table', () => {
  it('has a row for every route the app serves: a new route without a row fails', () => {
    const routes = allRoutes(vault.app).map(routeKey);
    expect(routes.filter((route) => !(route in AUTHORIZATION))).toEqual([]);
  });

  it('has no row for a route that no longer exists', () => {
    const routes = new Set(allRoutes(vault.app).map(routeKey));
    expect(Object.keys(AUTHORIZATION).filter((route) => !routes.has(route))).toEqual([]);
  });
});

const ACTORS: readonly Actor[] = ['anonymous', 'owner', 'other', 'admin'];
const SCOPES: readonly TokenScope[] = ['read', 'write'];
const summary = (row: Row) => ACTORS.map((actor) => `${actor} ${row[actor]}`).join(', ');

describe('each route answers each actor as the table says', () => {
  it.each(Object.entries(AUTHORIZATION).map(([key, row]) => [key, summary(row), row] as const))(
    '%s: %s',
    async (key, _, row) => {
      const [method, pattern] = key.split(' ') as [string, string];
      const outcomes: string[] = [];
      const check = async (sender: Sender, name: string, expected: Expected) => {
        const res = await send(method, pattern, sender, row);
        const body = await res.text();
        if (!meets(expected, res.status)) {
          outcomes.push(`${name}: expected ${expected}, got ${res.status} ${body.slice(0, 120)}`);
        }
        await removeSecondFactors();
      };
      for (const actor of ACTORS) await check(actor, actor, row[actor]);
      for (const scope of SCOPES) {
        const expected = expectedOfAdminToken(method, pattern, scope, row);
        await check({ adminToken: scope }, `admin's ${scope} token`, expected);
      }
      expect(outcomes).toEqual([]);
    },
  );
});

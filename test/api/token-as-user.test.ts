import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beveragePageSchema } from '../../contract/beverages.ts';
import { apiRoutes } from '../../contract/routes/index.ts';
import type { RouteDef, TokenScope } from '../../contract/routes/route.ts';
import type { UserRow } from '../../src/db/schema/index.ts';
import { AUTHORIZATION, type RequestParts, type Resource } from '../helpers/authorization-table.ts';
import { snapshotDatabase } from '../helpers/db-snapshot.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { fillPath } from '../helpers/routes.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * An access token acts as its user with the power of a plain user, whatever the user's role:
 * an admin's token reaches none of another user's PRIVATE entries, on any route of the table
 * that names an entry or a user, while the admin's signed-in session still does.
 */
let vault: TestVault;
let olive: UserRow & { password: string };
let oscar: UserRow & { password: string };
let root: UserRow & { password: string };
let rootCookie: string;
let secret: Record<'admin' | 'plain', Record<TokenScope, string>>;
let hidden: number;
let counter = 0;

beforeAll(async () => {
  vault = createTestVault({ env: { VAULT_TOKEN_REQUESTS_PER_MINUTE: '100000' } });
  olive = await vault.createUser({ username: 'olive' });
  oscar = await vault.createUser({ username: 'oscar' });
  root = await vault.createUser({ username: 'root', role: 'ADMIN' });
  rootCookie = await vault.login('root', root.password);
  const tokensOf = async (user: UserRow) => ({
    read: (await vault.ctx.tokens.create(user, { name: 'Reader', scope: 'read' })).secret,
    write: (await vault.ctx.tokens.create(user, { name: 'Writer', scope: 'write' })).secret,
  });
  secret = { admin: await tokensOf(root), plain: await tokensOf(oscar) };
  const entry = (name: string, visibility: 'PRIVATE' | 'MEMBERS') =>
    vault.ctx.beverages.create(olive, { name, type: 'WHISKEY', visibility });
  hidden = (await entry('Kept to herself', 'PRIVATE')).id;
  await entry('For the members', 'MEMBERS');
});
afterAll(() => vault.close());

function withToken(token: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return vault.app.request(new URL(path, vault.origin).toString(), { ...init, headers });
}

async function namesListed(res: Response): Promise<string[]> {
  expect(res.status).toBe(200);
  return beveragePageSchema
    .parse(await json(res))
    .beverages.map((b) => b.name)
    .sort();
}

describe("an admin's access token", () => {
  it("lists another user's entries as a plain user sees them, never the PRIVATE ones", async () => {
    const path = `/api/beverages?userId=${olive.id}`;
    expect(await namesListed(await vault.request(path, { cookie: rootCookie }))).toEqual([
      'For the members',
      'Kept to herself',
    ]);
    for (const scope of ['read', 'write'] as const) {
      expect(await namesListed(await withToken(secret.admin[scope], path))).toEqual([
        'For the members',
      ]);
    }
  });

  it('opens under /media only the photos its user may see, through the visibility policy', async () => {
    const photographed = await vault.ctx.beverages.create(
      olive,
      { name: 'Photographed', type: 'WINE', visibility: 'PRIVATE' },
      await jpeg(32, 24),
    );
    const path = `/${photographed.photoPath!}`;
    const own = (await vault.ctx.tokens.create(olive, { name: 'Exporter', scope: 'read' })).secret;
    const res = await withToken(own, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect((await vault.request(path, { cookie: rootCookie })).status).toBe(200);
    for (const token of [secret.admin.read, secret.admin.write, secret.plain.read]) {
      const refused = await withToken(token, path);
      expect(refused.status).toBe(404);
      expect(await json(refused)).toEqual({ message: 'Image not found' });
    }
    const unknown = await withToken('vault_pat_not-a-token', path);
    expect(unknown.status).toBe(401);
  });

  it("cannot export another user's vault, as a plain user cannot", async () => {
    const res = await withToken(secret.admin.read, `/api/export?username=${olive.username}`);
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({
      message: 'Access tokens cannot be used for this; sign in to the vault to do it',
    });
  });

  /** When a token was last used is recorded on use, refused or not. */
  const UNTRACKED = { api_tokens: ['last_used_at'] };

  /** The rows of the authorization table whose route names an entry by its id. */
  const entryRoutes = Object.entries(AUTHORIZATION).filter(([key]) =>
    /^[A-Z]+ \/api\/beverages\/:id(\/|$)/.test(key),
  );

  /** The resource of a row, made on the PRIVATE entry ('entryId' or 'entryId/childId'). */
  async function resourceOf(kind: Resource | undefined): Promise<string> {
    switch (kind) {
      case 'bottle':
        return `${hidden}/${(await vault.ctx.bottles.add(olive, hidden, { quantity: 1, sizeMl: 750 })).id}`;
      case 'tasting':
        return `${hidden}/${(await vault.ctx.tastings.create(olive, hidden, { rating: 3 })).id}`;
      case 'comment': {
        const ref = { kind: 'local' as const, id: hidden };
        return `${hidden}/${(await vault.ctx.conversation.comment(olive, ref, 'Mine')).id}`;
      }
      default:
        return String(hidden);
    }
  }

  /** The row's request, on a resource of the PRIVATE entry made for it. */
  async function requestOf(key: string): Promise<RequestParts> {
    const row = AUTHORIZATION[key]!;
    return (
      row.request?.({
        resource: await resourceOf(row.resource),
        username: root.username,
        password: root.password,
        unique: String(++counter),
      }) ?? { params: { id: String(hidden) } }
    );
  }

  async function send(key: string, parts: RequestParts, token: string): Promise<number> {
    const [method, pattern] = key.split(' ') as [string, string];
    const init: RequestInit = { method };
    if (parts.json !== undefined) {
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify(parts.json);
    } else if (parts.form) {
      const form = new FormData();
      for (const [name, value] of Object.entries(parts.form)) form.append(name, value);
      init.body = form;
    }
    const res = await withToken(token, fillPath(pattern, parts.params ?? {}), init);
    await res.body?.cancel();
    return res.status;
  }

  it.each(entryRoutes.map(([key]) => key))(
    '%s on a PRIVATE entry of another user answers as to a plain user and changes nothing',
    async (key) => {
      const [method, pattern] = key.split(' ') as [string, string];
      const tableKey = `${method} ${pattern.slice(4).replace(/:(\w+)/g, '{$1}')}`;
      const access = (apiRoutes as Record<string, RouteDef>)[tableKey]!.access;
      const scopes: TokenScope[] = access === 'read' ? ['read', 'write'] : ['write'];
      for (const scope of scopes) {
        const plain = await send(key, await requestOf(key), secret.plain[scope]);
        const parts = await requestOf(key);
        // What making the resource recorded is delivered in the background: before the snapshot.
        await vault.ctx.outbox.idle();
        const before = await snapshotDatabase(vault.ctx.database.database, UNTRACKED);
        const admin = await send(key, parts, secret.admin[scope]);
        const after = await snapshotDatabase(vault.ctx.database.database, UNTRACKED);
        expect({ scope, admin, plain }).toEqual({ scope, admin: plain, plain });
        expect([403, 404]).toContain(admin);
        expect(after).toEqual(before);
      }
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, type RouteKey } from '../../contract/routes/index.ts';
import { peopleRoutes } from '../../contract/routes/people.ts';
import type { RouteDef } from '../../contract/routes/route.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The people routes (contract/routes/people.ts) answer as their table entry says: the status,
 * and a body that the entry's answer schema parses to itself (so it has no field the contract
 * does not name). The fediverse routes need a remote server: test/api/remote-follows.test.ts.
 */
let vault: TestVault;
let alice: string;
let bob: string;
let admin: string;
let bobId: number;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  const root = await vault.createUser({ username: 'root', fullName: 'Root', role: 'ADMIN' });
  bobId = b.id;
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  admin = await vault.login('root', root.password);
});
afterAll(() => vault.close());

const served = new Set<string>();

/** Sends the route's request and checks its answer against the table; returns the body. */
async function send(
  key: RouteKey,
  cookie: string,
  input: { params?: Record<string, string | number>; json?: unknown; form?: FormData; q?: string },
): Promise<Record<string, unknown>> {
  const def: RouteDef = apiRoutes[key];
  expect(def, `${key} is in the table`).toBeDefined();
  const [method, template] = key.split(' ') as [string, string];
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => String(input.params?.[name]));
  const url = `/api${path}${input.q === undefined ? '' : `?q=${encodeURIComponent(input.q)}`}`;
  const res =
    input.json === undefined
      ? await vault.request(url, { method, cookie, ...(input.form && { body: input.form }) })
      : await vault.postJson(url, input.json, cookie, method);
  const text = await res.text();
  expect(res.status, `${key}: ${text}`).toBe(def.status ?? (def.answer ? 200 : 204));
  served.add(key);
  if (!def.answer) {
    expect(text).toBe('');
    return {};
  }
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(def.answer.parse(body)).toEqual(body);
  return body;
}

describe('the people routes', () => {
  it('the registry, profiles, follows, blocks and blocked servers answer as the table says', async () => {
    await send('GET /users', admin, {});
    const created = await send('POST /users', admin, {
      json: {
        username: 'carol',
        fullName: 'Carol Cask',
        email: 'carol@example.com',
        password: 'carol-password-1',
        role: 'USER',
      },
    });
    const carolId = (created.user as { id: number }).id;
    await send('PATCH /users/{id}', admin, { params: { id: carolId }, json: { role: 'ADMIN' } });

    const form = new FormData();
    form.set('bio', 'Peat and smoke.');
    await send('PATCH /users/me', alice, { form });
    await send('GET /users/profiles/{username}', alice, { params: { username: 'bob' } });
    await send('GET /users/search', alice, { q: 'bo' });

    await send('POST /users/{id}/follow', alice, { params: { id: bobId } });
    await send('GET /users/following', alice, {});
    const { followers } = await send('GET /users/followers', bob, {});
    const [follower] = followers as { actorId: number }[];
    await send('DELETE /users/followers/{actorId}', bob, {
      params: { actorId: follower!.actorId },
    });
    await send('POST /users/{id}/follow', alice, { params: { id: bobId }, json: {} });
    await send('DELETE /users/{id}/follow', alice, { params: { id: bobId } });

    const blocked = await send('POST /users/blocks', alice, { json: { username: 'bob' } });
    await send('GET /users/blocks', alice, {});
    const blockId = (blocked.block as { id: number }).id;
    await send('DELETE /users/blocks/{id}', alice, { params: { id: blockId } });

    const domain = await send('POST /domain-blocks', admin, { json: { domain: 'spam.example' } });
    await send('GET /domain-blocks', admin, {});
    const domainId = (domain.domainBlock as { id: number }).id;
    await send('DELETE /domain-blocks/{id}', admin, { params: { id: domainId } });

    const fediverse = [
      'POST /users/lookup',
      'POST /users/remote-follows',
      'DELETE /users/remote-follows/{actorId}',
    ];
    expect([...served, ...fediverse].sort()).toEqual(Object.keys(peopleRoutes).sort());
  });

  it('answers an existing block with 200 and the same block', async () => {
    const first = await vault.postJson('/api/users/blocks', { username: 'root' }, bob);
    expect(first.status).toBe(201);
    const again = await vault.postJson('/api/users/blocks', { username: 'root' }, bob);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(await first.json());
  });
});

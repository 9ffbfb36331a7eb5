import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;

beforeAll(async () => {
  vault = createTestVault();
  await vault.createUser({ username: 'alice', activityPubEnabled: true });
  await vault.createUser({ username: 'bob' });
});
afterAll(() => vault.close());

async function nodeInfo() {
  const res = await vault.request('/nodeinfo/2.1', { headers: { accept: 'application/json' } });
  expect(res.status).toBe(200);
  return json(res);
}

describe('NodeInfo', () => {
  it('links /.well-known/nodeinfo to the NodeInfo 2.1 document', async () => {
    const res = await vault.request('/.well-known/nodeinfo', {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      links: [
        {
          rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1',
          href: `${vault.origin}/nodeinfo/2.1`,
          type: 'application/json; profile="http://nodeinfo.diaspora.software/ns/schema/2.1#"',
        },
      ],
    });
  });

  it('describes the vault: software, ActivityPub, closed registrations, federated users only', async () => {
    const body = await nodeInfo();
    expect(body).toMatchObject({
      version: '2.1',
      software: { name: 'vault', version: packageJson.version },
      protocols: ['activitypub'],
      openRegistrations: false,
      usage: { users: { total: 1 }, localPosts: 0 },
    });
  });

  it('counts a user once they enable federation', async () => {
    const bob = (await vault.ctx.users.findByUsername('bob'))!;
    await vault.ctx.users.update(bob.id, { activityPubEnabled: true });
    expect((await nodeInfo()).usage.users.total).toBe(2);
  });
});

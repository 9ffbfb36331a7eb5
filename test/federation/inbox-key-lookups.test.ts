import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// What an unverifiable delivery leaves behind. Fedify fetches the key a delivery names before
// anything else; a key that cannot be fetched must not leave a record per attempt, or anyone
// could grow the vault's storage by signing with made-up key ids.

let vault: TestVault;
beforeAll(async () => {
  vault = createTestVault({ allowPrivateAddress: true });
  await vault.createUser({ username: 'alice', activityPubEnabled: true });
  // The instance actor's keys are made on first need: make them before counting.
  await vault.request('/users/instance.actor', {
    headers: { accept: 'application/activity+json' },
  });
});
afterAll(() => vault.close());

const kvRows = () =>
  vault.ctx.database.database.prepare('SELECT count(*) FROM federation_kv').pluck<number>().get();
const queued = () =>
  vault.ctx.database.database
    .prepare('SELECT count(*) FROM federation_queue')
    .pluck<number>()
    .get();

describe('deliveries signed with keys that cannot be fetched', () => {
  it('are refused (401) and leave the key-value store and the queue as they were', async () => {
    const before = { kv: await kvRows(), queue: await queued() };
    for (let i = 0; i < 40; i++) {
      // Port 1 on loopback: nothing listens, every key fetch fails.
      const actor = `http://127.0.0.1:1/actors/${i}`;
      const res = await vault.app.request('http://localhost:8080/inbox', {
        method: 'POST',
        headers: {
          'content-type': 'application/activity+json',
          date: new Date().toUTCString(),
          host: 'localhost:8080',
          signature: `keyId="${actor}#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="AAAA"`,
        },
        body: JSON.stringify({
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: `${actor}/follows/${i}`,
          type: 'Follow',
          actor,
          object: `${vault.origin}/users/alice`,
        }),
      });
      expect(res.status).toBe(401);
    }
    expect({ kv: await kvRows(), queue: await queued() }).toEqual(before);
  });
});

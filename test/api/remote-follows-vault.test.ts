import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followingListSchema,
  lookupAnswerSchema,
  remoteFollowAnswerSchema,
} from '../../contract/follows.ts';
import { activityPageSchema } from '../../contract/social.ts';
import { PUBLIC, startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { login } from '../federation/inbox-entries-world.ts';

/**
 * Whether a fediverse account is on a vault, as the follow dialog and the Following list say
 * (`vault`): its server's NodeInfo names the software, asked when the account is looked up (or
 * followed without a lookup) and kept per server. Fakes claim Mastodon, a vault, or serve no
 * NodeInfo. A Mastodon account's own posts never reach the activity feed.
 */

let vault: TestServer;
let masto: FakeRemote;
let cellar: FakeRemote;
let silent: FakeRemote;
let alice: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  alice = await login(vault, 'alice', 'alice-password');
  [masto, cellar, silent] = await Promise.all([
    startFakeRemote(),
    startFakeRemote({ software: 'vault' }),
    startFakeRemote({ software: null }),
  ]);
  masto.addAccount('bob', { name: 'Bob' });
  cellar.addAccount('carol', { name: 'Carol' });
  silent.addAccount('dan', { name: 'Dan' });
});
afterAll(async () => {
  await Promise.all([vault?.close(), masto?.close(), cellar?.close(), silent?.close()]);
});

function api(path: string, method = 'GET', body?: unknown) {
  return fetch(`${vault.url}/api${path}`, {
    method,
    headers: { cookie: alice, origin: vault.url, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function lookup(actorUri: string) {
  const res = await api('/users/lookup', 'POST', { query: actorUri });
  expect(res.status).toBe(200);
  return lookupAnswerSchema.parse(await res.json()).actor;
}

async function following() {
  const res = await api('/users/following');
  expect(res.status).toBe(200);
  return followingListSchema.parse(await res.json()).remote;
}

describe('whether a fediverse account is on a vault', () => {
  it('is told by the lookup from its server’s NodeInfo: Mastodon, a vault, or not known', async () => {
    expect(await lookup(masto.account('bob').id)).toMatchObject({
      displayName: 'Bob',
      vault: false,
    });
    expect(await lookup(cellar.account('carol').id)).toMatchObject({ vault: true });
    expect(await lookup(silent.account('dan').id)).toMatchObject({ vault: null });
  });

  it('is kept with the follow: the answer and each row of the Following list say it', async () => {
    const uris = [masto.account('bob').id, cellar.account('carol').id, silent.account('dan').id];
    const answers = [];
    for (const actorUri of uris) {
      const res = await api('/users/remote-follows', 'POST', { actorUri });
      expect(res.status).toBe(201);
      answers.push(remoteFollowAnswerSchema.parse(await res.json()).follow.vault);
    }
    expect(answers).toEqual([false, true, null]);
    const rows = await following();
    expect(Object.fromEntries(rows.map((row) => [row.actorUri, row.vault]))).toEqual({
      [uris[0]!]: false,
      [uris[1]!]: true,
      [uris[2]!]: null,
    });
  });

  it('does not bring a Mastodon account’s own posts into the activity feed', async () => {
    const bob = masto.account('bob').id;
    await expect
      .poll(async () => (await following()).find((r) => r.actorUri === bob)?.state, {
        timeout: 15_000,
      })
      .toBe('ACCEPTED');
    const { activity } = masto.activities.createNote('bob', {
      content: '<p>A walk in the hills</p>',
      to: [PUBLIC],
      cc: [`${bob}/followers`],
    });
    const res = await masto.post('bob', `${vault.url}/inbox`, activity);
    expect(res.status).toBe(202);
    await expect
      .poll(async () => {
        const federation = vault.ctx.federation.current()!;
        const depth = await federation.queue.getDepth();
        return depth.queued === 0 && federation.queue.inFlight === 0;
      })
      .toBe(true);
    const feed = await api('/activity');
    expect(feed.status).toBe(200);
    expect(activityPageSchema.parse(await feed.json()).activities).toEqual([]);
    const stored = vault.ctx.database.database.prepare('SELECT count(*) FROM remote_entries');
    expect(await stored.pluck().get()).toBe(0);
  });
});

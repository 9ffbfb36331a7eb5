import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followingListSchema, lookedUpActorSchema } from '../../contract/follows.ts';
import { followerSchema } from '../../contract/social.ts';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';
import { createTestVault, sessionCookieFrom, type TestVault } from '../helpers/vault.ts';

/**
 * A vault user follows fediverse accounts through the API: the '+ Follow' dialog's lookup by
 * handle (WebFinger over https, then the actor, signed as the user) and the follow itself,
 * against a Mastodon-shaped fake that accepts at once or waits; and every refusal, with a
 * message and nothing stored.
 */

let vault: TestServer;
let remote: FakeRemote;
let alice: string;
let aliceId: string;

async function login(username: string): Promise<string> {
  const res = await fetch(`${vault.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: vault.url },
    body: JSON.stringify({ username, password: `${username}-password` }),
  });
  expect(res.status).toBe(200);
  return sessionCookieFrom(res);
}

function api(path: string, cookie: string, method = 'GET', body?: unknown) {
  return fetch(`${vault.url}/api${path}`, {
    method,
    headers: {
      cookie,
      origin: vault.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const lookup = (query: string, cookie = alice) => api('/users/lookup', cookie, 'POST', { query });
const following = async (cookie = alice) =>
  followingListSchema.parse(await (await api('/users/following', cookie)).json());

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  sharedTestCertificate().trustInThisProcess();
  vault = await startTestServer({ allowPrivateAddress: true });
  for (const [username, federated] of [
    ['alice', true],
    ['bob', false],
  ] as const) {
    await vault.createUser({
      username,
      password: `${username}-password`,
      activityPubEnabled: federated,
    });
  }
  aliceId = `${vault.url}/users/alice`;
  remote = await startFakeRemote({ https: true, authorizedFetch: true });
  remote.addAccount('mastodonuser', {
    name: 'Mastodon User',
    summary: '<p>I <b>like</b> <script>alert(1)</script>peat &amp; smoke</p>',
  });
  remote.addAccount('locked', { name: 'Locked', manuallyApprovesFollowers: true });
  alice = await login('alice');
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

describe('looking up a fediverse account', () => {
  it('finds it by @name@host with WebFinger and a GET signed as the user, summary as text', async () => {
    const res = await lookup(`@${remote.handle('mastodonuser')}`);
    expect(res.status).toBe(200);
    const { actor } = (await res.json()) as { actor: unknown };
    expect(lookedUpActorSchema.parse(actor)).toEqual({
      actorUri: remote.account('mastodonuser').id,
      handle: `@mastodonuser@${remote.host}`,
      displayName: 'Mastodon User',
      summary: 'I like peat & smoke',
      avatarUrl: null,
      followState: 'NONE',
      vault: false,
    });
    const get = await remote.waitForGet((g) => g.path === '/users/mastodonuser' && g.verified);
    expect(get.keyOwner).toBe(aliceId);
  });

  it('finds it by name@host and by its actor URL too', async () => {
    for (const query of [remote.handle('mastodonuser'), remote.account('mastodonuser').id]) {
      const res = await lookup(query);
      expect(res.status, query).toBe(200);
    }
  });

  it('answers 404 for an unknown handle, storing nothing', async () => {
    const res = await lookup(`@nobody@${remote.host}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: `No account @nobody@${remote.host} was found.` });
    expect(
      await vault.ctx.remoteFollows.knownActor(`${remote.origin}/users/nobody`),
    ).toBeUndefined();
  });

  it('answers 422 for a host that cannot be reached', async () => {
    const res = await lookup('@someone@127.0.0.1:1');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      message: 'Could not reach 127.0.0.1:1 over https or http.',
    });
  });

  it('answers 422 for an address that is not an actor (a Note)', async () => {
    const { note } = remote.activities.createNote('mastodonuser', { content: '<p>Hi</p>' });
    const res = await lookup(note.id as string);
    expect(res.status).toBe(422);
    expect(((await res.json()) as Json).message).toBe(
      `${note.id as string} is not a fediverse account.`,
    );
  });

  it('answers 400 for text that is neither a handle nor an address', async () => {
    const res = await lookup('just words');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Enter a handle like @name@example.social, or a profile address.',
    });
  });

  it('answers 409 to a user without federation', async () => {
    const res = await lookup(remote.handle('mastodonuser'), await login('bob'));
    expect(res.status).toBe(409);
  });
});

describe('looking up on a vault that does not allow private addresses', () => {
  let strict: TestVault;
  beforeAll(() => {
    strict = createTestVault({ allowPrivateAddress: false });
  });
  afterAll(() => strict.close());

  it('refuses a handle on a loopback address with 400, before any request', async () => {
    await strict.createUser({ username: 'carol', activityPubEnabled: true });
    const cookie = await strict.login('carol', 'carol-password');
    const gets = remote.gets.length;
    const res = await strict.postJson(
      '/api/users/lookup',
      { query: remote.handle('mastodonuser') },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).message).toMatch(/private or local network address/);
    expect(remote.gets.length).toBe(gets);
  });
});

describe('following a fediverse account', () => {
  it('is pending, then accepted when the fake’s Accept arrives', async () => {
    const actorUri = remote.account('mastodonuser').id;
    const res = await api('/users/remote-follows', alice, 'POST', { actorUri });
    expect(res.status).toBe(201);
    const { follow } = (await res.json()) as { follow: { state: string; actorId: number } };
    expect(follow.state).toBe('PENDING');
    const delivery = await remote.waitForDelivery(
      (d) => d.activity.type === 'Follow' && d.activity.object === actorUri,
      10_000,
    );
    expect(delivery.keyOwner).toBe(aliceId);
    const list = await until(following, (l) => l.remote.some((f) => f.state === 'ACCEPTED'));
    expect(list.remote).toEqual([expect.objectContaining({ actorUri, state: 'ACCEPTED' })]);
    expect(remote.followers('mastodonuser')).toContain(aliceId);
    const again = await lookup(remote.handle('mastodonuser'));
    expect(((await again.json()) as { actor: Json }).actor.followState).toBe('ACCEPTED');
  });

  it('refuses following the same account twice with 409', async () => {
    const actorUri = remote.account('mastodonuser').id;
    const res = await api('/users/remote-follows', alice, 'POST', { actorUri });
    expect(res.status).toBe(409);
  });

  it('refreshes a known account when it is looked up again', async () => {
    const actorUri = remote.account('mastodonuser').id;
    remote.account('mastodonuser').profile.name = 'New Name';
    expect((await lookup(remote.handle('mastodonuser'))).status).toBe(200);
    expect((await vault.ctx.remoteFollows.knownActor(actorUri))?.displayName).toBe('New Name');
  });

  it('stays pending with a locked account and is removed on its Reject', async () => {
    const actorUri = remote.account('locked').id;
    expect((await api('/users/remote-follows', alice, 'POST', { actorUri })).status).toBe(201);
    const delivery = await remote.waitForDelivery(
      (d) => d.activity.type === 'Follow' && d.activity.object === actorUri,
      10_000,
    );
    expect((await following()).remote.find((f) => f.actorUri === actorUri)?.state).toBe('PENDING');
    await remote.rejectFollow('locked', delivery.activity);
    const list = await until(following, (l) => !l.remote.some((f) => f.actorUri === actorUri));
    expect(list.remote.map((f) => f.actorUri)).not.toContain(actorUri);
  });

  it('sends Undo(Follow) on unfollow and drops the follow', async () => {
    const actorUri = remote.account('mastodonuser').id;
    const item = (await following()).remote.find((f) => f.actorUri === actorUri)!;
    const res = await api(`/users/remote-follows/${item.actorId}`, alice, 'DELETE');
    expect(res.status).toBe(204);
    const undo = await remote.waitForDelivery((d) => d.activity.type === 'Undo', 10_000);
    expect((undo.activity.object as Json).object).toBe(actorUri);
    expect((await following()).remote).toEqual([]);
    await until(
      async () => remote.followers('mastodonuser'),
      (list) => !list.includes(aliceId),
    );
    expect(remote.followers('mastodonuser')).not.toContain(aliceId);
  });
});

describe('remote followers in the API', () => {
  it('are listed as federated and can be removed (a Reject goes out)', async () => {
    const follow = remote.activities.follow('locked', aliceId);
    expect((await remote.post('locked', `${aliceId}/inbox`, follow)).status).toBe(202);
    await remote.waitForDelivery((d) => d.activity.type === 'Accept', 10_000);
    const res = await api('/users/followers', alice);
    const followers = ((await res.json()) as { followers: unknown[] }).followers.map((f) =>
      followerSchema.parse(f),
    );
    const them = followers.find((f) => f.kind === 'federated');
    expect(them).toMatchObject({ actorUri: remote.account('locked').id, displayName: 'Locked' });
    if (them?.kind !== 'federated') throw new Error('no federated follower');
    expect((await api(`/users/followers/${them.actorId}`, alice, 'DELETE')).status).toBe(204);
    const reject = await remote.waitForDelivery((d) => d.activity.type === 'Reject', 10_000);
    expect((reject.activity.object as Json).id).toBe(follow.id);
    expect((await api(`/users/followers/${them.actorId}`, alice, 'DELETE')).status).toBe(404);
  });
});

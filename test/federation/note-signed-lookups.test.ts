import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * A follower's server that requires signed fetches (GoToSocial; Mastodon's secure mode): its
 * actor and key documents answer 401 to unsigned GETs. When it fetches a followers-only Note
 * with a signed GET, the vault verifies the signature by fetching that key and its owner with
 * GETs signed as its instance actor, and so serves the Note.
 */

let vault: TestServer;
let strict: FakeRemote;
/** Another strict server, where nobody follows gina. */
let other: FakeRemote;
let gina: { id: number; role: 'USER' };

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const g = await vault.createUser({
    username: 'gina',
    password: 'gina-password',
    activityPubEnabled: true,
  });
  gina = { id: g.id, role: 'USER' };
  [strict, other] = await Promise.all([
    startFakeRemote({ authorizedFetch: true }),
    startFakeRemote({ authorizedFetch: true }),
  ]);
  strict.addAccount('reader');
  other.addAccount('stranger');
  await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(g.id),
    strict,
    'reader',
  );
});
afterAll(async () => {
  await Promise.all([vault?.close(), strict?.close(), other?.close()]);
});

/**
 * A signed GET as the fake's account `name`, allowed 30 s: the first one loads Fedify and
 * makes the instance actor's keys, which takes seconds on a busy machine.
 */
function signedGet(name: string, url: string, remote: FakeRemote = strict) {
  const request = { method: 'GET', url, headers: { accept: 'application/activity+json' } };
  return remote.send({ ...request, headers: remote.sign(name, request), timeoutMs: 30_000 });
}

describe('a signed GET of a followers-only Note from a server that requires signed fetches', () => {
  it('gets the Note for a follower: its key and owner are fetched signed as the instance actor', async () => {
    const entry = await vault.ctx.beverages.create(gina, {
      type: 'BEER',
      name: 'Strict Saison',
      visibility: 'FOLLOWERS',
    });
    const noteId = `${vault.url}/users/gina/entries/${entry.id}`;
    const res = await signedGet('reader', noteId);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id: noteId, type: 'Note' });

    // The strict server answered the vault's lookups of the reader's key: each one signed, by
    // the vault's instance actor.
    const lookups = strict.gets.filter((get) => get.path === '/users/reader');
    expect(lookups.length).toBeGreaterThan(0);
    for (const lookup of lookups) {
      expect(lookup).toMatchObject({
        verified: true,
        keyOwner: `${vault.url}/users/instance.actor`,
        status: 200,
      });
    }
    // Cached like Fedify's own fetches: reading the Note again asks the strict server nothing.
    const asked = strict.gets.length;
    expect((await signedGet('reader', noteId)).status).toBe(200);
    expect(strict.gets.length).toBe(asked);
  });

  it('is still 404 for an account of another such server, where nobody follows the author', async () => {
    const entry = await vault.ctx.beverages.create(gina, {
      type: 'WINE',
      name: 'Strict Syrah',
      visibility: 'FOLLOWERS',
    });
    const noteId = `${vault.url}/users/gina/entries/${entry.id}`;
    expect((await signedGet('stranger', noteId, other)).status).toBe(404);
    expect(
      other.gets.find((get) => get.path === '/users/stranger' && get.status === 200),
    ).toMatchObject({ verified: true, keyOwner: `${vault.url}/users/instance.actor` });
  });
});

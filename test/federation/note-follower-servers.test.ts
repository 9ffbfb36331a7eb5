import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * Who may fetch a followers-only Note (federation/note-dispatcher.ts, signedByFollower): a
 * request signed by any actor of a server that holds an accepted follower of the author, its
 * instance actor included (Mastodon fetches a missing parent signed by its instance actor).
 * Another server's actors, unsigned requests, and the follower's server once its follower is
 * removed or blocked get the 404 of an entry that does not exist.
 */

let vault: TestServer;
/** The server of hana's follower `reader`, and of `neighbour`, who follows nobody. */
let home: FakeRemote;
/** A server with no follower of hana. */
let elsewhere: FakeRemote;
/** The server of `pest`, a follower hana blocks. */
let pestHome: FakeRemote;
let hana: { id: number; role: 'USER' };
let readerActorId: number;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const h = await vault.createUser({
    username: 'hana',
    password: 'hana-password',
    activityPubEnabled: true,
  });
  hana = { id: h.id, role: 'USER' };
  [home, elsewhere, pestHome] = await Promise.all([
    startFakeRemote(),
    startFakeRemote(),
    startFakeRemote(),
  ]);
  home.addAccount('reader');
  home.addAccount('neighbour');
  elsewhere.addAccount('stranger');
  pestHome.addAccount('pest');
  await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(h.id),
    pestHome,
    'pest',
  );
  readerActorId = await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(h.id),
    home,
    'reader',
  );
});
afterAll(async () => {
  await Promise.all([vault?.close(), home?.close(), elsewhere?.close(), pestHome?.close()]);
});

/**
 * A signed GET as `name` of the fake `remote` (its instance actor's name is its host), allowed
 * 30 s: the first one loads Fedify and makes the instance actor's keys, which takes seconds on
 * a busy machine.
 */
function signedGet(remote: FakeRemote, name: string, url: string) {
  const request = { method: 'GET', url, headers: { accept: 'application/activity+json' } };
  return remote.send({ ...request, headers: remote.sign(name, request), timeoutMs: 30_000 });
}

async function entryNote(name: string, visibility: 'FOLLOWERS' | 'MEMBERS' | 'PRIVATE') {
  const entry = await vault.ctx.beverages.create(hana, { type: 'BEER', name, visibility });
  return `${vault.url}/users/hana/entries/${entry.id}`;
}

describe("a followers-only Note fetched by the follower's server", () => {
  it('is served to its instance actor, which follows nobody', async () => {
    const noteId = await entryNote('Parent Porter', 'FOLLOWERS');
    const res = await signedGet(home, home.instanceActor.username, noteId);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      id: noteId,
      type: 'Note',
      attributedTo: `${vault.url}/users/hana`,
    });
    expect(JSON.stringify(res.json())).toContain('Parent Porter');
  });

  it('is served to any other actor of that server, and so is a MEMBERS entry', async () => {
    const noteId = await entryNote('Members Mild', 'MEMBERS');
    const res = await signedGet(home, 'neighbour', noteId);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id: noteId, type: 'Note' });
  });

  it('lists the entries in the outbox pages for its instance actor', async () => {
    const noteId = await entryNote('Outbox Oatmeal Stout', 'FOLLOWERS');
    const outbox = await signedGet(
      home,
      home.instanceActor.username,
      `${vault.url}/users/hana/outbox`,
    );
    const first = outbox.json<{ first: string }>().first;
    const page = await signedGet(home, home.instanceActor.username, first);
    const items = page.json<{ orderedItems: { object: { id: string } }[] }>().orderedItems;
    expect(items.map((item) => item.object.id)).toContain(noteId);
  });

  it('is 404 for a PRIVATE entry, even to the follower itself', async () => {
    const noteId = await entryNote('Private Pils', 'PRIVATE');
    expect((await signedGet(home, home.instanceActor.username, noteId)).status).toBe(404);
    expect((await signedGet(home, 'reader', noteId)).status).toBe(404);
  });
});

async function commentNote(entryName: string, text: string) {
  const noteId = await entryNote(entryName, 'FOLLOWERS');
  const ref = { kind: 'local' as const, id: Number(noteId.split('/').pop()) };
  const comment = await vault.ctx.conversation.comment(hana, ref, text);
  return `${vault.url}/users/hana/comments/${comment.id}`;
}

describe("a comment on a followers-only entry fetched by the follower's server", () => {
  it('is served to its instance actor, and 404 to another server', async () => {
    const id = await commentNote('Comment Cream Ale', 'Brewed it twice');
    const res = await signedGet(home, home.instanceActor.username, id);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id, type: 'Note', attributedTo: `${vault.url}/users/hana` });
    expect((await signedGet(elsewhere, elsewhere.instanceActor.username, id)).status).toBe(404);
    expect((await signedGet(elsewhere, 'stranger', id)).status).toBe(404);
  });
});

describe('everyone else', () => {
  it('gets 404: actors of another server (its instance actor too) and unsigned requests', async () => {
    const noteId = await entryNote('Guarded Gose', 'FOLLOWERS');
    expect((await signedGet(elsewhere, 'stranger', noteId)).status).toBe(404);
    expect((await signedGet(elsewhere, elsewhere.instanceActor.username, noteId)).status).toBe(404);
    const unsigned = await home.send({
      method: 'GET',
      url: noteId,
      headers: { accept: 'application/activity+json' },
      timeoutMs: 30_000,
    });
    expect(unsigned.status).toBe(404);
  });

  // Fedify takes a key's owner only from a document at the owner's own origin that lists the key.
  it("gets 404 for a key whose owner's document, served by another server, names a follower", async () => {
    const noteId = await entryNote('Lent Lambic', 'FOLLOWERS');
    const stranger = elsewhere.account('stranger');
    const reader = home.account('reader');
    const keyId = `${elsewhere.origin}/lent-key`;
    const ownerUrl = `${elsewhere.origin}/lent-actor`;
    const serveJson = (path: string, body: object) =>
      elsewhere.serveFile(path, Buffer.from(JSON.stringify(body)), 'application/activity+json');
    serveJson('/lent-key', {
      '@context': 'https://w3id.org/security/v1',
      id: keyId,
      type: 'CryptographicKey',
      owner: ownerUrl,
      publicKeyPem: stranger.publicKeyPem,
    });
    serveJson('/lent-actor', {
      ...elsewhere.actorDocument('stranger'),
      id: reader.id,
      publicKey: { id: keyId, owner: reader.id, publicKeyPem: stranger.publicKeyPem },
    });
    const request = {
      method: 'GET',
      url: noteId,
      headers: { accept: 'application/activity+json' },
    };
    const headers = elsewhere.sign('stranger', request, { keyId });
    expect((await elsewhere.send({ ...request, headers, timeoutMs: 30_000 })).status).toBe(404);
  });

  it("gets 404 once the server's only follower is removed", async () => {
    const noteId = await entryNote('Removed Rauchbier', 'FOLLOWERS');
    expect((await signedGet(home, home.instanceActor.username, noteId)).status).toBe(200);
    await vault.ctx.remoteFollows.removeFollower({ id: hana.id }, readerActorId);
    expect((await signedGet(home, home.instanceActor.username, noteId)).status).toBe(404);
    expect((await signedGet(home, 'reader', noteId)).status).toBe(404);
    expect((await signedGet(home, 'neighbour', noteId)).status).toBe(404);
  });

  it("gets 404 once the server's only follower is blocked", async () => {
    const noteId = await entryNote('Blocked Bock', 'FOLLOWERS');
    const instance = pestHome.instanceActor.username;
    expect((await signedGet(pestHome, instance, noteId)).status).toBe(200);
    const pest = pestHome.account('pest');
    await vault.ctx.blocks.block(
      { id: hana.id },
      {
        kind: 'remote',
        actor: {
          uri: pest.id,
          inboxUrl: pest.inbox,
          sharedInboxUrl: `${pestHome.origin}/inbox`,
          handle: `@${pestHome.handle('pest')}`,
          displayName: 'pest',
          summary: '',
          avatarUrl: null,
        },
      },
    );
    expect((await signedGet(pestHome, instance, noteId)).status).toBe(404);
    expect((await signedGet(pestHome, 'pest', noteId)).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareFederation, startFakeRemote, type FakeRemote } from './plumbing-remote.ts';

type Bare = Awaited<ReturnType<typeof startBareFederation>>;

let vault: Bare;
let remote: FakeRemote;
const gone: string[] = [];

beforeAll(async () => {
  remote = await startFakeRemote();
  vault = await startBareFederation({ onActorGone: (actor) => void gone.push(actor.href) });
  // Deleted accounts: the actor (and so its key) answers 410 Gone, as Mastodon's do.
  for (const path of ['/users/gone', '/users/gone-too', '/users/gone-third']) {
    remote.routes.set(path, (_req, res) => void res.writeHead(410).end());
  }
  remote.serveActor('/users/alive');
});
afterAll(async () => {
  await vault.close();
  await remote.close();
});

/** A Delete sent by `actor` (keyId `${keyActor}#main-key`), signed with the fake's key. */
function deleteFrom(actor: string, object: string, keyActor = actor, inbox = '/inbox') {
  const url = `${vault.origin}${inbox}`;
  const body = JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${actor}#delete-${Math.random()}`,
    type: 'Delete',
    actor,
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    object,
  });
  const keyPath = new URL(keyActor).pathname;
  const headers = remote.cavageHeaders(url, body, keyPath);
  // The fake signs with keyId on its own origin; keyActor may name another origin.
  headers.signature = headers.signature!.replace(
    `keyId="${remote.origin}${keyPath}#main-key"`,
    `keyId="${keyActor}#main-key"`,
  );
  return new Request(url, { method: 'POST', headers, body });
}

describe('a Delete from an actor that is already gone', () => {
  it('is accepted (202) at the shared inbox and reported once to onActorGone', async () => {
    const actor = `${remote.origin}/users/gone`;
    const res = await vault.fetch(deleteFrom(actor, actor));
    expect(res.status).toBe(202);
    expect(gone).toEqual([actor]);
  });

  it('is accepted at a user’s inbox too, the object given as an embedded Tombstone', async () => {
    gone.length = 0;
    const actor = `${remote.origin}/users/gone-too`;
    const url = `${vault.origin}/users/alice/inbox`;
    const body = JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${actor}#delete`,
      type: 'Delete',
      actor,
      object: { type: 'Tombstone', id: actor },
    });
    const headers = remote.cavageHeaders(url, body, '/users/gone-too');
    const res = await vault.fetch(new Request(url, { method: 'POST', headers, body }));
    expect(res.status).toBe(202);
    expect(gone).toEqual([actor]);
  });

  it('is refused (401) when it deletes something other than the actor itself', async () => {
    gone.length = 0;
    const actor = `${remote.origin}/users/gone`;
    const res = await vault.fetch(deleteFrom(actor, `${remote.origin}/notes/1`));
    expect(res.status).toBe(401);
    expect(gone).toEqual([]);
  });

  it('is refused (401) when the key that answers 410 is on another origin than the actor', async () => {
    gone.length = 0;
    // Same fake, but "localhost" is another origin than "127.0.0.1".
    const actor = `${remote.origin.replace('127.0.0.1', 'localhost')}/users/victim`;
    const res = await vault.fetch(deleteFrom(actor, actor, `${remote.origin}/users/gone-third`));
    expect(res.status).toBe(401);
    expect(gone).toEqual([]);
  });

  it('is refused (401) when the actor is alive and the signature is not its key’s', async () => {
    gone.length = 0;
    const actor = `${remote.origin}/users/alive`;
    const request = deleteFrom(actor, actor);
    const forged = new Request(request.url, {
      method: 'POST',
      headers: { ...Object.fromEntries(request.headers), date: new Date(0).toUTCString() },
      body: await request.text(),
    });
    expect((await vault.fetch(forged)).status).toBe(401);
    expect(gone).toEqual([]);
  });
});

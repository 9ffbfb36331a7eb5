import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, Json } from '../helpers/fake-remote.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';
import {
  activities,
  deliver,
  follow,
  remoteEntry,
  settled,
  startWorld,
  type World,
} from './inbox-entries-world.ts';

/**
 * A local user's cheer and comment on an entry received from another vault go to that entry's
 * actor, as Mastodon sends them: Like and Undo(Like) with one Like id, Create(Note) replying to
 * the entry's Note (addressed to its author alone, never public) and Delete(Tombstone). The
 * fake remote checks every signature against the vault user's key.
 */

let world: World;
let noteUri: string;
let remoteId: number;

beforeAll(async () => {
  world = await startWorld(['carol', 'alice']);
  await follow(world, 'carol');
  const entry = remoteEntry({ name: 'Talisker 10' });
  await deliver(world, await activities(world).create(entry));
  await settled(world);
  noteUri = `${world.remote.origin}/users/barrel/entries/${entry.id}`;
  remoteId = (await world.vault.ctx.remoteEntries.find(noteUri))!.id;
});
afterAll(async () => {
  await world?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${world.vault.url}/api/activity/remote-entries/${remoteId}${path}`, {
    method,
    headers: {
      cookie: world.users.carol!.cookie,
      origin: world.vault.url,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.status === 204 ? undefined : ((await res.json()) as Json);
}

const carol = () => `${world.vault.url}/users/carol`;
const toBarrel = (type: string) => (d: Delivery) =>
  d.path === '/users/barrel/inbox' && d.activity.type === type;

describe('a cheer of a remote entry', () => {
  it('is a signed Like of its Note for its actor; taking it back an Undo of the same Like', async () => {
    await call('POST', '/cheer');
    const liked = await world.remote.waitForDelivery(toBarrel('Like'), 15_000);
    expect(liked.keyOwner).toBe(carol());
    expect(liked.activity).toMatchObject({ type: 'Like', actor: carol(), object: noteUri });
    const likeId = liked.activity.id as string;
    expect(likeId).toMatch(new RegExp(`^${carol()}/likes/\\d+$`));

    await call('DELETE', '/cheer');
    const undone = await world.remote.waitForDelivery(toBarrel('Undo'), 15_000);
    expect(undone.keyOwner).toBe(carol());
    expect(undone.activity).toMatchObject({
      type: 'Undo',
      actor: carol(),
      object: { type: 'Like', id: likeId, actor: carol(), object: noteUri },
    });
  });
});

describe('a comment on a remote entry', () => {
  it('is a signed Create of a reply Note for its author alone; deleting it a Delete', async () => {
    const answer = (await call('POST', '/comments', {
      content: 'Smoky <b>& good</b>: https://x.example/y',
    })) as { comment: { id: number } };
    const created = await world.remote.waitForDelivery(toBarrel('Create'), 15_000);
    expect(created.keyOwner).toBe(carol());
    const note = created.activity.object as Json;
    expect(note).toMatchObject({
      type: 'Note',
      id: `${carol()}/comments/${answer.comment.id}`,
      attributedTo: carol(),
      inReplyTo: noteUri,
      to: world.barrel,
      content:
        '<p>Smoky &lt;b&gt;&amp; good&lt;/b&gt;: <a href="https://x.example/y" rel="nofollow noopener noreferrer" target="_blank">https://x.example/y</a></p>',
    });
    // Sent to the entry's author alone; its cc tells the author's vault that whoever may see the
    // entry there reads it (Public, within the entry's own audience), nothing to any followers.
    expect([note.cc].flat()).toEqual(['https://www.w3.org/ns/activitystreams#Public']);
    expect(JSON.stringify(created.activity)).not.toMatch(/followers/);

    // Its id answers the entry's author with the Note (a signed GET), anyone else 404.
    const read = (name: string) =>
      world.remote.send({
        method: 'GET',
        url: note.id as string,
        headers: world.remote.sign(name, {
          method: 'GET',
          url: note.id as string,
          headers: { accept: 'application/activity+json' },
        }),
        timeoutMs: 30_000,
      });
    const fetched = await read('barrel');
    expect(fetched.status).toBe(200);
    expect(fetched.json()).toMatchObject({ id: note.id, inReplyTo: noteUri, to: world.barrel });
    expect((await read('cooper')).status).toBe(404);

    await call('DELETE', `/comments/${answer.comment.id}`);
    const deleted = await world.remote.waitForDelivery(toBarrel('Delete'), 15_000);
    expect(deleted.keyOwner).toBe(carol());
    expect(deleted.activity).toMatchObject({
      type: 'Delete',
      actor: carol(),
      object: { type: 'Tombstone', id: note.id },
    });
    expect((await read('barrel')).status).toBe(404);
  });
});

describe('a comment on a local entry whose owner has remote followers', () => {
  it("goes to the followers' servers addressed like the entry and to them, signed by its author", async () => {
    const alice = { id: world.users.alice!.id, role: 'USER' as const };
    await insertRemoteFollower(
      world.vault.ctx.database.database,
      await world.vault.ctx.actors.localActorId(alice.id),
      world.remote,
      'cooper',
    );
    const entry = await world.vault.ctx.beverages.create(alice, {
      type: 'BEER',
      name: 'Members Märzen',
      visibility: 'MEMBERS',
    });
    const entryNote = `${world.vault.url}/users/alice/entries/${entry.id}`;
    const res = await fetch(`${world.vault.url}/api/beverages/${entry.id}/comments`, {
      method: 'POST',
      headers: {
        cookie: world.users.carol!.cookie,
        origin: world.vault.url,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ content: 'Cheers from carol' }),
    });
    expect(res.status).toBe(201);
    const commentId = ((await res.json()) as { comment: { id: number } }).comment.id;
    // One POST to the follower's server (its shared inbox), naming the follower in `cc`, which
    // is what lets a Mastodon account read a reply addressed to another account's followers.
    const toCooper = (type: string) => (d: Delivery) =>
      d.inbox === 'shared' &&
      d.activity.type === type &&
      JSON.stringify(d.activity.cc).includes(world.remote.account('cooper').id);
    const created = await world.remote.waitForDelivery(toCooper('Create'), 15_000);
    expect(created.keyOwner).toBe(carol());
    const note = created.activity.object as Json;
    expect(note).toMatchObject({
      id: `${carol()}/comments/${commentId}`,
      attributedTo: carol(),
      inReplyTo: entryNote,
      to: `${world.vault.url}/users/alice/followers`,
      cc: [`${world.vault.url}/users/alice`, world.remote.account('cooper').id],
      content: '<p>Cheers from carol</p>',
    });
    expect(JSON.stringify(created.activity)).not.toContain('Public');

    // The follower's server reads it at its id, by any of its accounts (the entry Note's rule;
    // another server's 404 is in note-follower-servers.test.ts).
    const read = (name: string) =>
      world.remote.send({
        method: 'GET',
        url: note.id as string,
        headers: world.remote.sign(name, {
          method: 'GET',
          url: note.id as string,
          headers: { accept: 'application/activity+json' },
        }),
        timeoutMs: 30_000,
      });
    expect((await read('cooper')).status).toBe(200);
    expect((await read('barrel')).status).toBe(200);

    // The owner deletes it: the Delete is the author's, to the same followers.
    const deleted = await fetch(
      `${world.vault.url}/api/beverages/${entry.id}/comments/${commentId}`,
      { method: 'DELETE', headers: { cookie: world.users.alice!.cookie, origin: world.vault.url } },
    );
    expect(deleted.status).toBe(204);
    const gone = await world.remote.waitForDelivery(toCooper('Delete'), 15_000);
    expect(gone.keyOwner).toBe(carol());
    expect(gone.activity).toMatchObject({
      actor: carol(),
      object: { type: 'Tombstone', id: note.id },
    });
  });
});

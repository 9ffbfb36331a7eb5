import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * An entry Note's `replies` collection (federation/entry-replies.ts): the ids of the comments
 * its owner's thread shows (no comment of someone she blocked), served by the entry Note's rule
 * (any actor of a server holding a follower of hers); everyone else gets 404.
 */

let vault: TestServer;
/** The server of hana's follower `reader`. */
let home: FakeRemote;
/** A server with no follower of hana. */
let elsewhere: FakeRemote;
type Viewer = { id: number; role: 'USER' };
let hana: Viewer;
let cleo: Viewer;
let pest: Viewer;
/** The actor row of hana's follower `reader`. */
let readerActorId: number;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const user = async (username: string): Promise<Viewer> => {
    const made = await vault.createUser({
      username,
      password: `${username}-password`,
      activityPubEnabled: true,
    });
    return { id: made.id, role: 'USER' };
  };
  hana = await user('hana');
  cleo = await user('cleo');
  pest = await user('pest');
  [home, elsewhere] = await Promise.all([startFakeRemote(), startFakeRemote()]);
  home.addAccount('reader');
  elsewhere.addAccount('stranger');
  readerActorId = await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(hana.id),
    home,
    'reader',
  );
});
afterAll(async () => {
  await Promise.all([vault?.close(), home?.close(), elsewhere?.close()]);
});

function signedGet(remote: FakeRemote, name: string, url: string) {
  const request = { method: 'GET', url, headers: { accept: 'application/activity+json' } };
  return remote.send({ ...request, headers: remote.sign(name, request), timeoutMs: 30_000 });
}

async function entry(name: string, visibility: 'MEMBERS' | 'PRIVATE') {
  const made = await vault.ctx.beverages.create(hana, { type: 'BEER', name, visibility });
  return {
    ref: { kind: 'local' as const, id: made.id },
    noteId: `${vault.url}/users/hana/entries/${made.id}`,
  };
}

const commentId = (user: string, id: number) => `${vault.url}/users/${user}/comments/${id}`;

describe("an entry Note's replies", () => {
  it('is named by the Note', async () => {
    const { noteId } = await entry('Replies Red', 'MEMBERS');
    const res = await signedGet(home, home.instanceActor.username, noteId);
    expect(res.status).toBe(200);
    expect(res.json<{ replies?: unknown }>().replies).toBe(`${noteId}/replies`);
  });

  it("lists the comments hana's thread shows to the follower's server, not a blocked person's", async () => {
    const { ref, noteId } = await entry('Thread Tripel', 'MEMBERS');
    const own = await vault.ctx.conversation.comment(hana, ref, 'Brewed in May');
    const blocked = await vault.ctx.conversation.comment(pest, ref, 'Spam spam');
    const friendly = await vault.ctx.conversation.comment(cleo, ref, 'Lovely');
    // A reply of the follower's, stored as the inbox stores one.
    const replyId = `${home.account('reader').id}/statuses/1`;
    await vault.ctx.database.database
      .prepare(
        `INSERT INTO comments (actor_id, beverage_id, content, uri, created_at, updated_at)
         VALUES (?, ?, 'Cheers', ?, ?, ?)`,
      )
      .run(readerActorId, ref.id, replyId, Date.now() + 1000, Date.now() + 1000);
    await vault.ctx.blocks.block({ id: hana.id }, { kind: 'local', username: 'pest' });
    const res = await signedGet(home, home.instanceActor.username, `${noteId}/replies`);
    expect(res.status).toBe(200);
    const body = res.json<{ id: string; type: string; first: { items: string[] } }>();
    expect(body).toMatchObject({ id: `${noteId}/replies`, type: 'Collection', totalItems: 3 });
    expect(body.first.items).toEqual([
      commentId('hana', own.id),
      commentId('cleo', friendly.id),
      replyId,
    ]);
    expect(JSON.stringify(body)).not.toContain(commentId('pest', blocked.id));
    // Each listed comment is served to the same requester.
    expect((await signedGet(home, home.instanceActor.username, body.first.items[1]!)).status).toBe(
      200,
    );
  });

  it('is 404 for a PRIVATE entry, to another server and unsigned', async () => {
    const hidden = await entry('Private Porter', 'PRIVATE');
    await vault.ctx.conversation.comment(hana, hidden.ref, 'Just mine');
    expect((await signedGet(home, 'reader', `${hidden.noteId}/replies`)).status).toBe(404);
    const { noteId } = await entry('Guarded Gueuze', 'MEMBERS');
    const replies = `${noteId}/replies`;
    expect((await signedGet(elsewhere, elsewhere.instanceActor.username, replies)).status).toBe(
      404,
    );
    const unsigned = await home.send({
      method: 'GET',
      url: replies,
      headers: { accept: 'application/activity+json' },
      timeoutMs: 30_000,
    });
    expect(unsigned.status).toBe(404);
    expect((await signedGet(home, 'reader', replies)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentAudience } from '../../contract/enums.ts';
import {
  startFakeRemote,
  type Delivery,
  type FakeRemote,
  type Json,
} from '../helpers/fake-remote.ts';
import { gotoSocialKept } from '../helpers/fake-gotosocial.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';
import { settled, startWorld, type World } from './inbox-entries-world.ts';

/**
 * What the vault sends of a thread under a local entry (docs/federation.md, "The audience of a
 * comment's Note"): answers to comments and to remote replies, mentions, private (DIRECT)
 * answers, cheers of comments, and a third person's comment reaching a GoToSocial follower of
 * the owner. alice owns the entry; carol comments; cooper (a Mastodon-shaped server with a
 * shared inbox) follows alice; gina, on a GoToSocial-shaped server (no shared inbox), follows
 * alice but not carol; barrel is on cooper's server and follows nobody here. Threads are
 * written as rows with their outbox activity, as the conversation service records them.
 */

let world: World;
let gts: FakeRemote;
let entryId: number;
let cooperReply: { id: number; uri: string };
const db = () => world.vault.ctx.database.database;
const vaultUser = (name: string) => `${world.vault.url}/users/${name}`;
const actorOf = (username: string) =>
  world.vault.ctx.actors.localActorId(world.users[username]!.id);
const remoteActorId = async (uri: string) =>
  (await db().prepare('SELECT id FROM actors WHERE uri = ?').pluck<number>().get(uri))!;

beforeAll(async () => {
  world = await startWorld(['alice', 'carol']);
  gts = await startFakeRemote();
  gts.addAccount('gina');
  const alice = await actorOf('alice');
  await insertRemoteFollower(db(), alice, world.remote, 'cooper');
  // A GoToSocial account: its own inbox only.
  const gina = await insertRemoteFollower(db(), alice, gts, 'gina');
  await db().prepare('UPDATE actors SET shared_inbox_url = NULL WHERE id = ?').run(gina);
  // barrel is known (a remote actor row) without following alice.
  await insertRemoteFollower(db(), await actorOf('carol'), world.remote, 'barrel');
  await db()
    .prepare('DELETE FROM follows WHERE follower_id = ?')
    .run(await remoteActorId(world.barrel));
  const entry = await world.vault.ctx.beverages.create(
    { id: world.users.alice!.id, role: 'USER' },
    { type: 'BEER', name: 'Thread Tripel', visibility: 'MEMBERS' },
  );
  entryId = entry.id;
  // cooper's reply to the entry, as the inbox stores one.
  const uri = `${world.remote.account('cooper').id}/statuses/1`;
  const cooper = await remoteActorId(world.remote.account('cooper').id);
  const id = await db()
    .prepare(
      `INSERT INTO comments (actor_id, beverage_id, content, uri, created_at, updated_at)
       VALUES (?, ?, 'Lovely', ?, ?, ?) RETURNING id`,
    )
    .pluck()
    .get(cooper, entryId, uri, Date.now(), Date.now());
  cooperReply = { id: id as number, uri };
});
afterAll(async () => {
  await Promise.all([world?.close(), gts?.close()]);
});

/** A comment of a local user with its outbox activity, as the conversation service writes it. */
async function comment(
  username: string,
  content: string,
  options: {
    parentId?: number;
    audience?: CommentAudience;
    addressees?: { actorId: number; mentioned: boolean }[];
  } = {},
): Promise<number> {
  const { outbox, database } = world.vault.ctx;
  return database.transaction(async () => {
    const actorId = await actorOf(username);
    const now = Date.now();
    const id = (await db()
      .prepare(
        `INSERT INTO comments (actor_id, beverage_id, content, created_at, updated_at, parent_id,
           audience) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .pluck()
      .get(
        actorId,
        entryId,
        content,
        now,
        now,
        options.parentId ?? null,
        options.audience ?? 'PUBLIC',
      )) as number;
    for (const a of options.addressees ?? []) {
      await db()
        .prepare(
          'INSERT INTO comment_addressees (comment_id, actor_id, mentioned) VALUES (?, ?, ?)',
        )
        .run(id, a.actorId, a.mentioned ? 1 : 0);
    }
    await outbox.record({
      actorId,
      type: 'Comment',
      beverageId: entryId,
      payload: { commentId: id },
      createdAt: now,
    });
    return id;
  });
}

const created = (remote: FakeRemote, noteId: string, where: (d: Delivery) => boolean) =>
  remote.waitForDelivery(
    (d) => d.activity.type === 'Create' && (d.activity.object as Json).id === noteId && where(d),
    15_000,
  );
const noteIdOf = (username: string, id: number) => `${vaultUser(username)}/comments/${id}`;
const tagsOf = (note: Json) => (Array.isArray(note.tag) ? note.tag : [note.tag]) as Json[];
const list = (value: unknown) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Every Create of that Note received by any of the fakes, once everything is delivered. */
async function allCreates(noteId: string): Promise<Delivery[]> {
  await world.vault.ctx.outbox.idle();
  await settled(world, 30_000);
  return [...world.remote.deliveries, ...gts.deliveries].filter(
    (d) => d.activity.type === 'Create' && (d.activity.object as Json).id === noteId,
  );
}

describe('an answer to a remote reply (PUBLIC)', () => {
  it("answers the reply's Note, mentions and links its author, and reaches them and the owner's followers", async () => {
    const id = await comment('carol', 'Agreed, very lovely', { parentId: cooperReply.id });
    const noteId = noteIdOf('carol', id);
    const cooper = world.remote.account('cooper').id;
    const toCooper = await created(world.remote, noteId, () => true);
    const note = toCooper.activity.object as Json;
    expect(note).toMatchObject({
      inReplyTo: cooperReply.uri,
      to: `${vaultUser('alice')}/followers`,
      attributedTo: vaultUser('carol'),
    });
    expect(list(note.cc)).toEqual(expect.arrayContaining([vaultUser('alice'), cooper]));
    expect(tagsOf(note)).toEqual(
      expect.arrayContaining([
        { type: 'Mention', href: cooper, name: `@${world.remote.handle('cooper')}` },
        {
          type: 'Mention',
          href: vaultUser('alice'),
          name: `@alice@${new URL(world.vault.url).host}`,
        },
      ]),
    );
    expect(note.content).toBe(
      `<p><a class="u-url mention" href="${cooper}">@cooper</a> Agreed, very lovely</p>`,
    );
    expect(JSON.stringify(toCooper.activity)).not.toContain('#Public');
    // gina (GoToSocial, alice's follower) has it too.
    await created(gts, noteId, (d) => d.path === '/users/gina/inbox');
  });
});

describe('an answer to a local comment that mentions a remote account', () => {
  it("answers the comment's Note, mentions the account with a link and delivers to its inbox", async () => {
    const parent = await comment('alice', 'Brewed it myself');
    const barrelId = await remoteActorId(world.barrel);
    const text = `Thanks! @${world.remote.handle('barrel')} should try it`;
    const id = await comment('carol', text, {
      parentId: parent,
      addressees: [{ actorId: barrelId, mentioned: true }],
    });
    const noteId = noteIdOf('carol', id);
    const toBarrel = await created(world.remote, noteId, (d) => d.path === '/users/barrel/inbox');
    const note = toBarrel.activity.object as Json;
    expect(note.inReplyTo).toBe(noteIdOf('alice', parent));
    expect(list(note.cc)).toContain(world.barrel);
    expect(tagsOf(note)).toContainEqual({
      type: 'Mention',
      href: world.barrel,
      name: `@${world.remote.handle('barrel')}`,
    });
    // The parent's author is local: a Mention, and a link at the start; the typed handle a link.
    expect(note.content).toBe(
      `<p><a class="u-url mention" href="${vaultUser('alice')}">@alice</a> Thanks! ` +
        `<a class="u-url mention" href="${world.barrel}">@barrel</a> should try it</p>`,
    );
  });
});

describe('a private (DIRECT) answer', () => {
  it('goes to its addressee alone, addressed to nobody else, and only their server may fetch it', async () => {
    const cooperActor = await remoteActorId(world.remote.account('cooper').id);
    const id = await comment('carol', 'Just between us: it was flat', {
      parentId: cooperReply.id,
      audience: 'DIRECT',
      addressees: [{ actorId: cooperActor, mentioned: false }],
    });
    const noteId = noteIdOf('carol', id);
    const cooper = world.remote.account('cooper').id;
    const got = await created(world.remote, noteId, () => true);
    expect(got.path).toBe('/users/cooper/inbox');
    const note = got.activity.object as Json;
    expect(note).toMatchObject({ inReplyTo: cooperReply.uri, to: cooper });
    expect(note.cc).toBeUndefined();
    expect(JSON.stringify(got.activity)).not.toMatch(/#Public|\/followers/);
    expect(tagsOf(note)).toEqual([
      { type: 'Mention', href: cooper, name: `@${world.remote.handle('cooper')}` },
    ]);
    // Nobody else: not alice's followers' servers, not gina.
    expect((await allCreates(noteId)).map((d) => d.path)).toEqual(['/users/cooper/inbox']);

    // Its Note: for cooper's server (any of its accounts), 404 to gina's (a follower of alice).
    const read = (remote: FakeRemote, name: string) => remote.signedGet(name, noteId);
    const fetched = await read(world.remote, 'cooper');
    expect(fetched.status).toBe(200);
    expect(fetched.json()).toMatchObject({ id: noteId, to: cooper, inReplyTo: cooperReply.uri });
    expect((await read(world.remote, 'barrel')).status).toBe(200);
    expect((await read(gts, 'gina')).status).toBe(404);

    // The entry's replies, as a follower's server reads them, do not list it.
    const replies = await gts.signedGet('gina', `${vaultUser('alice')}/entries/${entryId}/replies`);
    expect(replies.status).toBe(200);
    const items = replies.json<{ first: { items: string[] } }>().first.items;
    expect(items).toContain(cooperReply.uri);
    expect(items).not.toContain(noteId);
  });
});

describe('a comment by a third vault user, at a GoToSocial follower of the owner', () => {
  it('is kept by GoToSocial (it names gina), while no Mastodon account is mentioned by href', async () => {
    const res = await fetch(`${world.vault.url}/api/beverages/${entryId}/comments`, {
      method: 'POST',
      headers: {
        cookie: world.users.carol!.cookie,
        origin: world.vault.url,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ content: 'Cheers from carol' }),
    });
    expect(res.status).toBe(201);
    const noteId = noteIdOf(
      'carol',
      ((await res.json()) as { comment: { id: number } }).comment.id,
    );
    await created(gts, noteId, (d) => d.path === '/users/gina/inbox');
    // gina follows alice, not carol: GoToSocial keeps it only as it names her.
    expect(gotoSocialKept(gts, 'gina').map((note) => note.id)).toContain(noteId);
    // cooper's server gets one POST at its shared inbox, naming cooper in cc (Mastodon lets
    // him read it) with a Mention that has no href (Mastodon notifies nobody of it).
    const shared = await created(world.remote, noteId, (d) => d.inbox === 'shared');
    const note = shared.activity.object as Json;
    expect(list(note.cc)).toContain(world.remote.account('cooper').id);
    expect(tagsOf(note).filter((t) => t.href === world.remote.account('cooper').id)).toEqual([]);
  });
});

describe('answers written through the API', () => {
  async function post(body: Record<string, unknown>): Promise<{ id: number; noteId: string }> {
    const res = await fetch(`${world.vault.url}/api/beverages/${entryId}/comments`, {
      method: 'POST',
      headers: {
        cookie: world.users.carol!.cookie,
        origin: world.vault.url,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = ((await res.json()) as { comment: { id: number } }).comment;
    return { id, noteId: noteIdOf('carol', id) };
  }

  it('a private answer and its Delete go to the answered author alone', async () => {
    const direct = await post({
      content: 'Only for you',
      inReplyTo: cooperReply.id,
      private: true,
    });
    const cooper = world.remote.account('cooper').id;
    const creates = await allCreates(direct.noteId);
    expect(creates.map((d) => d.path)).toEqual(['/users/cooper/inbox']);
    expect(creates[0]!.activity.object).toMatchObject({ inReplyTo: cooperReply.uri, to: cooper });
    expect((creates[0]!.activity.object as Json).cc).toBeUndefined();

    // Deleted (it has no answers, so its row goes): the Delete reaches the same one person.
    const res = await fetch(`${world.vault.url}/api/beverages/${entryId}/comments/${direct.id}`, {
      method: 'DELETE',
      headers: { cookie: world.users.carol!.cookie, origin: world.vault.url },
    });
    expect(res.status).toBe(204);
    await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Delete' && d.path === '/users/cooper/inbox',
      15_000,
    );
    await world.vault.ctx.outbox.idle();
    await settled(world, 30_000);
    const deletes = [...world.remote.deliveries, ...gts.deliveries].filter(
      (d) => d.activity.type === 'Delete' && (d.activity.object as Json).id === direct.noteId,
    );
    expect(deletes.map((d) => d.path)).toEqual(['/users/cooper/inbox']);
    expect(deletes[0]!.activity).toMatchObject({ to: cooper });
  });

  it('a mention reaches the one named, with its Mention and link', async () => {
    const cooper = world.remote.account('cooper').id;
    const named = await post({
      content: `@${world.remote.handle('barrel')} you should try it`,
      inReplyTo: cooperReply.id,
    });
    const toBarrel = await created(
      world.remote,
      named.noteId,
      (d) => d.path === '/users/barrel/inbox',
    );
    expect(tagsOf(toBarrel.activity.object as Json)).toContainEqual({
      type: 'Mention',
      href: world.barrel,
      name: `@${world.remote.handle('barrel')}`,
    });
    expect((toBarrel.activity.object as Json).content).toBe(
      `<p><a class="u-url mention" href="${cooper}">@cooper</a> ` +
        `<a class="u-url mention" href="${world.barrel}">@barrel</a> you should try it</p>`,
    );
  });
});

describe('a cheer of a comment', () => {
  it("is a Like of the comment's Note for its author and the owner's followers' servers; its Undo the same Like", async () => {
    const carol = await actorOf('carol');
    const { outbox, database } = world.vault.ctx;
    const cheer = await database.transaction(async () => {
      const cheerId = (await db()
        .prepare(
          'INSERT INTO comment_cheers (comment_id, actor_id, created_at) VALUES (?, ?, ?) RETURNING id',
        )
        .pluck()
        .get(cooperReply.id, carol, Date.now())) as number;
      const payload = { commentCheerId: cheerId, commentId: cooperReply.id };
      await outbox.record({
        actorId: carol,
        type: 'LikeComment',
        beverageId: entryId,
        payload,
        createdAt: Date.now(),
      });
      return cheerId;
    });
    const likeId = `${vaultUser('carol')}/comment-likes/${cheer}`;
    const like = await world.remote.waitForDelivery(
      (d) =>
        d.activity.type === 'Like' && d.activity.id === likeId && d.path === '/users/cooper/inbox',
      15_000,
    );
    expect(like.keyOwner).toBe(vaultUser('carol'));
    expect(like.activity).toMatchObject({ actor: vaultUser('carol'), object: cooperReply.uri });
    await gts.waitForDelivery((d) => d.activity.id === likeId, 15_000);

    await database.transaction(async () => {
      await db().prepare('DELETE FROM comment_cheers WHERE id = ?').run(cheer);
      const payload = { commentCheerId: cheer, commentId: cooperReply.id };
      await outbox.record({
        actorId: carol,
        type: 'UndoLikeComment',
        beverageId: entryId,
        payload,
        createdAt: Date.now(),
      });
    });
    const undo = await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Undo' && d.path === '/users/cooper/inbox',
      15_000,
    );
    expect(undo.activity).toMatchObject({
      actor: vaultUser('carol'),
      object: { type: 'Like', id: likeId, object: cooperReply.uri },
    });
  });
});

describe("a comment only its author's followers read (AUTHOR_FOLLOWERS)", () => {
  it("is fetched by a server that holds a follower of the owner and of the author, not by one that holds only the owner's", async () => {
    // cooper follows alice and carol; gina only alice.
    await insertRemoteFollower(db(), await actorOf('carol'), world.remote, 'cooper');
    const id = await comment('carol', 'For my followers: it was better on cask', {
      audience: 'AUTHOR_FOLLOWERS',
    });
    const noteId = noteIdOf('carol', id);
    await allCreates(noteId);
    const fetched = await world.remote.signedGet('cooper', noteId);
    expect(fetched.status).toBe(200);
    expect(fetched.json()).toMatchObject({ id: noteId, to: `${vaultUser('carol')}/followers` });
    expect((await gts.signedGet('gina', noteId)).status).toBe(404);
  });
});

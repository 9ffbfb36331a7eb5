import { afterAll, beforeAll, expect } from 'vitest';
import { commentListSchema } from '../../contract/conversation.ts';
import { notificationListSchema } from '../../contract/social.ts';
import type { FakeRemote } from '../helpers/fake-remote.ts';
import { post, type Mentioned, type PostVisibility, type Shape } from './conversation-shapes.ts';
import {
  api,
  closeConversationWorld,
  deliver,
  startConversationWorld,
  type ConversationWorld,
} from './conversation-world.ts';

/**
 * The people of the inbound conversation tests: alice (whose entries they answer) and carol
 * federate, dave does not; on each server two followers of alice and a stranger.
 */
export const INBOUND_CAST = {
  users: { alice: true, carol: true, dave: false },
  masto: ['bob', 'erin', 'mallory'],
  gts: ['ann', 'gus', 'mona'],
  followers: ['bob', 'erin', 'ann', 'gus'],
};

/**
 * What the inbound conversation tests ask of their world (conversation-world.ts): its users,
 * entries and comments, what is stored of a reply, the thread and the notifications through
 * the API, a block; and for each shape, its server, its accounts and a reply from one of them.
 */
export function inboundHelpers(w: () => ConversationWorld) {
  const db = () => w().vault.ctx.database.database;
  const viewer = (name: string) => ({ id: w().users[name]!.id, role: 'USER' as const });

  /** Each shape's servers and accounts: two followers of alice and a stranger. */
  const CAST = {
    mastodon: { remote: () => w().masto, replier: 'bob', second: 'erin', stranger: 'mallory' },
    gotosocial: { remote: () => w().gts, replier: 'ann', second: 'gus', stranger: 'mona' },
  } as const;

  async function entry(visibility: 'MEMBERS' | 'FOLLOWERS' = 'MEMBERS') {
    const created = await w().vault.ctx.beverages.create(viewer('alice'), {
      type: 'BEER',
      name: 'Saison',
      visibility,
    });
    return { id: created.id, note: `${w().vault.url}/users/alice/entries/${created.id}` };
  }

  /** carol's comment on the entry, and its Note's id. */
  async function carolsComment(entryId: number, text: string) {
    const ref = { kind: 'local', id: entryId } as const;
    const comment = await w().vault.ctx.conversation.comment(viewer('carol'), ref, text);
    return { comment, note: `${w().vault.url}/users/carol/comments/${comment.id}` };
  }

  /** A vault user as a post mentions them. */
  function local(username: string): Mentioned {
    return { id: `${w().vault.url}/users/${username}`, name: `@${username}@vault` };
  }

  function remoteAccount(remote: FakeRemote, name: string): Mentioned {
    return { id: remote.account(name).id, name: `@${remote.handle(name)}` };
  }

  function storedComment(uri: string) {
    return db()
      .prepare<{
        id: number;
        beverage_id: number;
        parent_id: number | null;
        audience: string;
        content: string;
      }>('SELECT id, beverage_id, parent_id, audience, content FROM comments WHERE uri = ?')
      .get(uri);
  }

  /** Whom a comment is addressed to: usernames for local users, actor URIs for the others. */
  function addressees(commentId: number) {
    return db()
      .prepare<{ who: string; mentioned: number }>(
        `SELECT coalesce(u.username, a.uri) AS who, ca.mentioned FROM comment_addressees ca
         JOIN actors a ON a.id = ca.actor_id LEFT JOIN users u ON u.id = a.user_id
         WHERE ca.comment_id = ? ORDER BY who`,
      )
      .all(commentId);
  }

  function notifications(username: string, type: string) {
    return db()
      .prepare<{ message: string | null; url: string | null; comment_id: number | null }>(
        `SELECT message, url, comment_id FROM notifications WHERE recipient_id = ? AND type = ?
         ORDER BY id`,
      )
      .all(w().users[username]!.id, type);
  }

  /** The thread as a user reads it through the API. */
  async function thread(username: string, entryId: number) {
    const body = await api(w(), username, `/api/beverages/${entryId}/comments`);
    return commentListSchema.parse(body).comments;
  }

  /** A user's notifications through the API: type, message, link and sender. */
  async function told(username: string) {
    const body = notificationListSchema.parse(await api(w(), username, '/api/notifications'));
    return body.notifications.map((n) => ({
      type: n.type,
      message: n.payload.message,
      url: n.payload.url,
      sender: n.sender.username,
    }));
  }

  /** A user blocks a remote account through the API. */
  async function block(username: string, actorUri: string) {
    const res = await fetch(`${w().vault.url}/api/users/blocks`, {
      method: 'POST',
      headers: {
        cookie: w().users[username]!.cookie,
        origin: w().vault.url,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ actorUri }),
    });
    expect(res.status).toBe(201);
  }

  /** One shape's server and accounts (two followers of alice and a stranger), and its replies. */
  function shapeHelpers(shape: Shape) {
    const cast = CAST[shape];
    const remote = () => cast.remote();
    const account = (name: string) => remote().account(name);
    const personal = () => `${w().vault.url}/users/alice/inbox`;

    async function reply(
      from: string,
      input: {
        inReplyTo: string;
        visibility: PostVisibility;
        mentions: Mentioned[];
        to?: string[];
      },
      inbox?: string,
    ) {
      const made = post(shape, account(from), { ...input, text: `${from} says hi` });
      await deliver(w(), remote(), from, made.activity, inbox);
      return String(made.note.id);
    }

    return { cast, remote, account, personal, reply };
  }

  return {
    db,
    viewer,
    entry,
    local,
    remoteAccount,
    storedComment,
    addressees,
    notifications,
    thread,
    told,
    block,
    carolsComment,
    shapeHelpers,
  };
}

/**
 * The world of INBOUND_CAST for one test file, started before its tests and closed after them
 * (`world` is filled in by then), with its helpers.
 */
export function inboundWorld() {
  const world = {} as ConversationWorld;
  beforeAll(async () => {
    Object.assign(world, await startConversationWorld(INBOUND_CAST));
  });
  afterAll(() => closeConversationWorld(world));
  return { world, ...inboundHelpers(() => world) };
}

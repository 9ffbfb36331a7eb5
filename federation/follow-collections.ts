import type { PageItems } from '@fedify/fedify';
import type { Recipient } from '@fedify/vocab';
import type { UserRow } from '../src/db/schema/index.ts';
import type { RemoteRecipient } from '../src/follows/follow-rows.ts';
import type { FollowRepository } from '../src/follows/repository.ts';
import { INSTANCE_ACTOR } from './paths.ts';
import type { CollectionSource } from './collections.ts';

/** Items per page of the followers and following collections. */
export const FOLLOW_PAGE_SIZE = 50;

/** An opaque cursor: the last follow id of the previous page. */
function encodeCursor(afterId: number): string {
  return Buffer.from(`f${afterId}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  const id = /^f(\d{1,15})$/.exec(text)?.[1];
  return id === undefined ? Number.MAX_SAFE_INTEGER : Number(id);
}

function recipient(row: RemoteRecipient): Recipient {
  return {
    id: new URL(row.uri),
    inboxId: row.inboxUrl ? new URL(row.inboxUrl) : null,
    endpoints: row.sharedInboxUrl ? { sharedInbox: new URL(row.sharedInboxUrl) } : null,
  };
}

const isInstance = (user: UserRow) => user.username === INSTANCE_ACTOR;

/**
 * A user's remote followers (accepted), as Fedify's fan-out and other servers read them:
 * Recipients with inbox and shared inbox, so a delivery to 'followers' goes once per shared
 * inbox. Without a cursor (the fan-out) every follower at once. Other servers get `totalItems`
 * and `first`; a page lists accounts only with the base-URL filter of followers
 * synchronisation (FEP-8fcf), and then only that server's, 50 at a time behind opaque cursors:
 * nobody reads the whole list of who follows a user. Local followers are not listed: they get
 * entries locally.
 */
export function followersSource(repo: FollowRepository): CollectionSource<Recipient, URL> {
  return {
    count: async (user) => (isInstance(user) ? 0 : repo.countRemoteFollowers(user.id)),
    firstCursor: async (user) =>
      !isInstance(user) && (await repo.countRemoteFollowers(user.id)) > 0 ? encodeCursor(0) : null,
    async page(user, cursor, filter): Promise<PageItems<Recipient>> {
      if (isInstance(user)) return { items: [] };
      const prefix = filter?.href ?? '';
      if (cursor === null) {
        const rows = await repo.remoteFollowers(user.id, 0, Number.MAX_SAFE_INTEGER, prefix);
        return { items: rows.map(recipient) };
      }
      // Readers see totalItems only: the accounts are listed to a server asking for its own
      // (followers synchronisation), never to anyone as a whole.
      if (!filter) return { items: [], nextCursor: null };
      const rows = await repo.remoteFollowers(
        user.id,
        decodeCursor(cursor),
        FOLLOW_PAGE_SIZE,
        prefix,
      );
      const last = rows.at(-1);
      return {
        items: rows.map(recipient),
        nextCursor: rows.length === FOLLOW_PAGE_SIZE && last ? encodeCursor(last.followId) : null,
      };
    },
  };
}

/** The remote actors a user follows (accepted), as actor ids, in pages of 50. */
export function followingSource(repo: FollowRepository): CollectionSource<URL> {
  return {
    count: async (user) => (isInstance(user) ? 0 : repo.countRemoteFollowed(user.id)),
    firstCursor: async (user) =>
      !isInstance(user) && (await repo.countRemoteFollowed(user.id)) > 0 ? encodeCursor(0) : null,
    async page(user, cursor): Promise<PageItems<URL>> {
      if (isInstance(user)) return { items: [] };
      const afterId = cursor === null ? 0 : decodeCursor(cursor);
      const limit = cursor === null ? Number.MAX_SAFE_INTEGER : FOLLOW_PAGE_SIZE;
      const rows = await repo.remoteFollowed(user.id, afterId, limit);
      const last = rows.at(-1);
      return {
        items: rows.map((row) => new URL(row.uri)),
        nextCursor:
          cursor !== null && rows.length === FOLLOW_PAGE_SIZE && last
            ? encodeCursor(last.followId)
            : null,
      };
    },
  };
}

import type { Recipient } from '@fedify/vocab';
import type Database from 'better-sqlite3';
import type { CollectionSource } from './collections.ts';

/** A remote follower as Fedify's fan-out takes it (a Recipient, in plain data). */
export interface RemoteFollower {
  actorUri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
}

/**
 * Who receives a user's entries: their accepted remote followers. The Note's dereference check
 * and the decision to deliver at all ask it; Fedify's fan-out itself takes the followers
 * collection (collections.ts), which lists the same followers.
 */
export interface EntryAudience {
  /** Whether the actor currently follows the user (an accepted remote follow). */
  isFollower(userId: number, actorUri: string): boolean;
  /** Whether the user has any accepted remote follower (else nothing is sent). */
  hasRemoteFollowers(userId: number): boolean;
  /** The user's accepted remote followers, oldest follow first. */
  remoteFollowers(userId: number): RemoteFollower[];
}

/** The audience read from the follows and actors tables. */
export function createEntryAudience(sqlite: Database.Database): EntryAudience {
  const FROM = `FROM follows f
    JOIN actors them ON them.id = f.follower_id AND them.kind = 'remote'
    JOIN actors me ON me.id = f.followed_id AND me.user_id = ?
    WHERE f.state = 'ACCEPTED'`;
  const isFollower = sqlite.prepare(`SELECT 1 ${FROM} AND them.uri = ? LIMIT 1`).pluck();
  const any = sqlite.prepare(`SELECT 1 ${FROM} AND them.inbox_url IS NOT NULL LIMIT 1`).pluck();
  const all = sqlite.prepare(
    `SELECT them.uri, them.inbox_url, them.shared_inbox_url ${FROM}
     AND them.uri IS NOT NULL AND them.inbox_url IS NOT NULL ORDER BY f.id`,
  );
  return {
    isFollower: (userId, actorUri) => isFollower.get(userId, actorUri) !== undefined,
    hasRemoteFollowers: (userId) => any.get(userId) !== undefined,
    remoteFollowers: (userId) =>
      (all.all(userId) as Record<string, string | null>[]).map((row) => ({
        actorUri: row.uri!,
        inboxUrl: row.inbox_url!,
        sharedInboxUrl: row.shared_inbox_url ?? null,
      })),
  };
}

/**
 * The followers collection as Fedify's fan-out reads it (every accepted remote follower, with
 * its shared inbox), built from the audience: used until the follows module provides its own.
 */
export function remoteFollowersSource(audience: EntryAudience): CollectionSource<Recipient, URL> {
  return {
    count: (user) => audience.remoteFollowers(user.id).length,
    firstCursor: () => null,
    page: (user) => ({
      items: audience.remoteFollowers(user.id).map((follower) => ({
        id: new URL(follower.actorUri),
        inboxId: new URL(follower.inboxUrl),
        endpoints: follower.sharedInboxUrl
          ? { sharedInbox: new URL(follower.sharedInboxUrl) }
          : null,
      })),
    }),
  };
}

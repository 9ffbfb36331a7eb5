import type { ActorKind, FollowRow, FollowState } from '../db/schema/index.ts';

// How the follows' statements (src/follows/repository.ts) are read: the records their lists
// answer with, and the row of each made into it.

/** A local user as lists of people show them. */
export interface PersonSummary {
  id: number;
  username: string;
  fullName: string;
  avatarPath: string | null;
}

/**
 * A local user an actor follows, or asked to (PENDING until they accept); remote accounts it
 * follows are `RemoteFollowing`.
 */
export interface FollowedPerson {
  followId: number;
  user: PersonSummary;
  state: FollowState;
  followedAt: Date;
}

/** A remote actor a local user follows (or asked to: PENDING until its Accept arrives). */
export interface RemoteFollowing {
  followId: number;
  actorId: number;
  uri: string;
  handle: string | null;
  displayName: string;
  summary: string;
  avatarUrl: string | null;
  state: FollowState;
  followedAt: Date;
}

/** A remote follower as the followers collection lists it (an ActivityPub Recipient). */
export interface RemoteRecipient {
  followId: number;
  uri: string;
  inboxUrl: string | null;
  sharedInboxUrl: string | null;
}

/** Someone who follows an actor: a local user's row (`user` set) or a remote actor's. */
export interface FollowerRecord {
  kind: ActorKind;
  actorId: number;
  user: PersonSummary | null;
  displayName: string;
  uri: string | null;
  handle: string | null;
  summary: string;
  avatarUrl: string | null;
  followedAt: Date;
}

export function followOf(row: Record<string, unknown>): FollowRow {
  return {
    id: row.id as number,
    followerId: row.follower_id as number,
    followedId: row.followed_id as number,
    state: row.state as FollowState,
    activityUri: row.activity_uri as string | null,
    createdAt: new Date(row.created_at as number),
  };
}

/** A local user's columns (`user_id`, `username`, `full_name`, `avatar_path`). */
export const personOf = (row: Record<string, unknown>): PersonSummary => ({
  id: row.user_id as number,
  username: row.username as string,
  fullName: row.full_name as string,
  avatarPath: row.avatar_path as string | null,
});

/** An actor's columns as lists show them (`display_name`, `handle`, `summary`, `avatar_url`). */
const actorNamesOf = (row: Record<string, unknown>) => ({
  displayName: row.display_name as string,
  handle: row.handle as string | null,
  summary: row.summary as string,
  avatarUrl: row.avatar_url as string | null,
});

export const followedPersonOf = (row: Record<string, unknown>): FollowedPerson => ({
  followId: row.id as number,
  user: personOf(row),
  state: row.state as FollowState,
  followedAt: new Date(row.created_at as number),
});

export const followerOf = (row: Record<string, unknown>): FollowerRecord => ({
  kind: row.kind as ActorKind,
  actorId: row.actor_id as number,
  user: row.user_id === null ? null : personOf(row),
  uri: row.uri as string | null,
  ...actorNamesOf(row),
  followedAt: new Date(row.created_at as number),
});

export const remoteFollowingOf = (row: Record<string, unknown>): RemoteFollowing => ({
  followId: row.id as number,
  actorId: row.actor_id as number,
  uri: row.uri as string,
  ...actorNamesOf(row),
  state: row.state as FollowState,
  followedAt: new Date(row.created_at as number),
});

export const recipientOf = (row: Record<string, unknown>): RemoteRecipient => ({
  followId: row.id as number,
  uri: row.uri as string,
  inboxUrl: row.inbox_url as string | null,
  sharedInboxUrl: row.shared_inbox_url as string | null,
});

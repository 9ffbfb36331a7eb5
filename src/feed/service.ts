import type { Role, TastingRow } from '../db/schema/index.ts';
import type { VisibleThing } from '../visibility/policy.ts';
import { badRequest } from '../domain-error.ts';
import type { BeverageWithOwner } from '../beverages/repository.ts';
import type { EntryReader } from '../beverages/by-ids.ts';
import { payloadOf } from '../outbox/activities.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { FeedPosition, FeedRepository } from './repository.ts';
import type { RemoteEntryRecord } from '../remote-entries/repository.ts';
import { ACTIVITY_DEFAULT_LIMIT, ACTIVITY_MAX_LIMIT } from '../../contract/social.ts';

export interface FeedViewer {
  id: number;
  role: Role;
}

/**
 * The part of the visibility policy the feed asks (src/visibility/policy.ts), at read time: a
 * feed item stays in the feed, and shows only while its entry's visibility allows it (an entry
 * made PRIVATE leaves every feed at once, and comes back if made visible again).
 */
export interface EntryVisibility {
  /** Whether the viewer sees each entry of a page, asking once per owner. */
  canSeeEach(viewer: FeedViewer): (entry: VisibleThing) => Promise<boolean>;
}

/** One item of a feed page: who logged which entry, and when. */
export interface FeedItem {
  kind: 'local';
  activityId: number;
  actor: { fullName: string; username: string };
  entry: BeverageWithOwner;
  createdAt: Date;
}

/** A tasting of a local entry: who tasted which entry, and when it was logged. */
export interface TastingFeedItem {
  kind: 'tasting';
  activityId: number;
  actor: { fullName: string; username: string };
  tasting: TastingRow;
  entry: BeverageWithOwner;
  createdAt: Date;
}

/** An entry received from a remote vault (src/remote-entries/), read-only. */
export interface RemoteFeedItem {
  kind: 'remote';
  activityId: number;
  entry: RemoteEntryRecord;
  createdAt: Date;
}

/** Where the feed reads remote entries from (the remote entries' repository or service). */
export interface RemoteEntryReader {
  byIds(ids: readonly number[]): Promise<RemoteEntryRecord[]>;
}

/** Where the feed reads tastings from (the tastings' repository). */
export interface TastingReader {
  byIds(ids: readonly number[]): Promise<TastingRow[]>;
}

export interface FeedPage {
  items: (FeedItem | TastingFeedItem | RemoteFeedItem)[];
  nextCursor: string | null;
}

const CURSOR = /^([0-9]{1,15}):([1-9][0-9]{0,15})$/;

/** The opaque cursor: where the next page starts, base64url of "createdAt:activityId". */
export function encodeFeedCursor(position: FeedPosition): string {
  return Buffer.from(`${position.createdAt}:${position.activityId}`).toString('base64url');
}

export function decodeFeedCursor(cursor: string): FeedPosition {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  const position = match && { createdAt: Number(match[1]), activityId: Number(match[2]) };
  // Only the exact text this server hands out: no padding, no other spellings of the same bytes.
  if (!position || encodeFeedCursor(position) !== cursor) {
    throw badRequest('The cursor is not valid; start again from the first page.');
  }
  return position;
}

/**
 * The activity feed: entries newly logged by the actors a user follows, local users and remote
 * vault actors (received entries, src/remote-entries/) alike, and the tastings local users log. Delivery writes it
 * (fan-out on write: `deliverCreate` runs in the outbox, after the author's write committed), so
 * reading a page is one index range of the reader's own items, whoever and however many they
 * follow. Entries logged before a follow are never delivered to the new follower.
 */
export function createFeedService(deps: {
  repo: FeedRepository;
  entries: EntryReader;
  visibility: EntryVisibility;
  /** Entries received from remote vaults; a feed without it shows local entries only. */
  remoteEntries?: RemoteEntryReader;
  /** Tastings of local entries; a feed without it leaves them out. */
  tastings?: TastingReader;
}) {
  const { repo, entries, visibility, remoteEntries, tastings } = deps;

  return {
    /** Registers the fan-out of new entries with the outbox. */
    registerDelivery(outbox: Outbox): void {
      // In parts of FAN_OUT_CHUNK followers; the token is the last follower reached.
      outbox.on('Create', async (activity, resume) => {
        const after = resume === undefined ? 0 : Number(resume);
        const last = await repo.fanOut(activity, Number.isSafeInteger(after) ? after : 0);
        return last === undefined ? undefined : String(last);
      });
      // A tasting reaches the same followers, as an item of its own (src/tastings/activities.ts).
      outbox.on('CreateTasting', async (activity, resume) => {
        const tastingId = payloadOf(activity, 'CreateTasting')?.tastingId;
        if (tastingId === undefined) return undefined;
        const after = resume === undefined ? 0 : Number(resume);
        const start = Number.isSafeInteger(after) ? after : 0;
        const last = await repo.fanOut(activity, start, tastingId);
        return last === undefined ? undefined : String(last);
      });
    },

    /** One page, newest first; `limit` defaults to 20 and is at most 50. */
    async page(
      viewer: FeedViewer,
      query: { cursor?: string | undefined; limit?: number | undefined },
    ): Promise<FeedPage> {
      const limit = query.limit ?? ACTIVITY_DEFAULT_LIMIT;
      if (!Number.isInteger(limit) || limit < 1 || limit > ACTIVITY_MAX_LIMIT) {
        throw badRequest(`limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`);
      }
      const before = query.cursor === undefined ? undefined : decodeFeedCursor(query.cursor);
      const rows = await repo.page(viewer.id, before, limit + 1);
      const page = rows.slice(0, limit);
      const localIds: number[] = [];
      const remoteIds: number[] = [];
      const tastingIds: number[] = [];
      for (const row of page) {
        if (row.beverageId !== null) localIds.push(row.beverageId);
        else if (row.remoteEntryId !== null) remoteIds.push(row.remoteEntryId);
        if (row.tastingId !== null) tastingIds.push(row.tastingId);
      }
      const tastingById = new Map(
        tastingIds.length && tastings
          ? (await tastings.byIds(tastingIds)).map((t) => [t.id, t])
          : [],
      );
      const byId = new Map((await entries.byIds(localIds)).map((e) => [e.id, e]));
      // Only a page that holds remote items pays for reading them.
      const remoteById = new Map(
        remoteIds.length && remoteEntries
          ? (await remoteEntries.byIds(remoteIds)).map((e) => [e.id, e])
          : [],
      );
      const canSee = visibility.canSeeEach(viewer);
      const items: (FeedItem | TastingFeedItem | RemoteFeedItem)[] = [];
      for (const row of page) {
        if (row.beverageId === null) {
          const remote = row.remoteEntryId === null ? undefined : remoteById.get(row.remoteEntryId);
          if (remote) {
            items.push({
              kind: 'remote',
              activityId: row.activityId,
              entry: remote,
              createdAt: new Date(row.createdAt),
            });
          }
          continue;
        }
        const entry = byId.get(row.beverageId);
        if (!entry || !(await canSee(entry))) continue;
        if (row.tastingId !== null) {
          // A tasting shows while its entry may be seen (the one visibility policy).
          const tasting = tastingById.get(row.tastingId);
          if (tasting) {
            items.push({
              kind: 'tasting',
              activityId: row.activityId,
              actor: { fullName: row.actorName, username: row.actorUsername },
              tasting,
              entry,
              createdAt: new Date(row.createdAt),
            });
          }
          continue;
        }
        items.push({
          kind: 'local',
          activityId: row.activityId,
          actor: { fullName: row.actorName, username: row.actorUsername },
          entry,
          createdAt: new Date(row.createdAt),
        });
      }
      const last = page[page.length - 1];
      const nextCursor = rows.length > limit && last ? encodeFeedCursor(last) : null;
      return { items, nextCursor } satisfies FeedPage;
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;

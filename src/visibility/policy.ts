import type { Role, Visibility } from '../db/schema/index.ts';

/** Who is asking: a signed-in user, or null for an anonymous request. */
export type VisibilityViewer = { id: number; role: Role } | null;

/** What the policy needs to know of an entry. */
export interface VisibleThing {
  id: number;
  userId: number;
  visibility: Visibility;
}

/** What owns a stored photo path ('media/…'). */
export type PhotoOwner =
  | { kind: 'entry'; entry: VisibleThing }
  /** A tasting's photo: for whoever may see the entry it is a tasting of. */
  | { kind: 'tasting'; entry: VisibleThing }
  | { kind: 'avatar'; userId: number }
  /** The vault's copy of a remote entry's photo: for signed-in users, as the entry's feeds. */
  | { kind: 'remote' }
  | null;

/**
 * Which of one owner's entries a viewer sees, for lists that filter in SQL (and the search
 * index): those whose visibility is one of `visibilities`, and those of `sharedIds` (entries
 * shared with the viewer, whatever their visibility).
 */
export interface EntryScope {
  visibilities: readonly Visibility[];
  sharedIds: readonly number[];
}

/** The entries that go to the fediverse, as SQL over `beverages` (src/visibility/policy.ts). */
export const FEDERATED_ENTRY_SQL = "(federated = 1 AND visibility <> 'PRIVATE')";

/**
 * The block rule as SQL (docs/social.md, "Blocks"), for the statements that list what blocked
 * people must not see of each other: the entries shared between them (src/shares/), the cheers
 * and comments counted and shown under an entry (src/conversation/, comments through
 * commentReadableSql), and notifications
 * (src/notifications/). The lookups of src/blocks/repository.ts are these same fragments. The
 * arguments are SQL expressions (columns or parameters), never values from a request.
 *
 * `blockedBetweenUsersSql(one, other)`: whether one of two local users blocked the other. Two
 * probes of blocks_pair_unique through actors_user_id_unique.
 */
export function blockedBetweenUsersSql(one: string, other: string): string {
  const way = (blocked: string, blocker: string) =>
    `EXISTS (SELECT 1 FROM actors blk_a JOIN blocks blk_b ON blk_b.blocked_actor_id = blk_a.id
      AND blk_b.blocker_id = ${blocker} WHERE blk_a.user_id = ${blocked})`;
  return `(${way(one, other)} OR ${way(other, one)})`;
}

/**
 * Whether the local user `userId` blocked the actor `actorId`, or that actor is a local user who
 * blocked them (`userActorId`: the user's own actor id, 0 when they have none, so nobody can
 * have blocked them). Two probes of blocks_pair_unique.
 */
export function blockedEitherWaySql(userId: string, userActorId: string, actorId: string): string {
  return `(EXISTS (SELECT 1 FROM blocks blk_b WHERE blk_b.blocker_id = ${userId}
      AND blk_b.blocked_actor_id = ${actorId})
    OR EXISTS (SELECT 1 FROM actors blk_a JOIN blocks blk_b ON blk_b.blocker_id = blk_a.user_id
      AND blk_b.blocked_actor_id = ${userActorId} WHERE blk_a.id = ${actorId}))`;
}

/**
 * Who reads a comment (`c`: the alias of a `comments` row), as SQL (docs/social.md, "Who reads
 * a reply"): the local user `userId`, whose actor is `userActorId` (0 when they have none). The
 * thread, the counts and the notifications of comments all ask it, so they agree. Never across
 * a block (blockedEitherWaySql); then its author; the people it is addressed to
 * (`comment_addressees`, mentioned or not); then by `audience`: PUBLIC everyone, OWNER_FOLLOWERS
 * the entry's owner and the owner's accepted followers, AUTHOR_FOLLOWERS the entry's owner and
 * the author's accepted followers, DIRECT nobody else. Admins have no extra right here. It
 * assumes the user may see the entry (the callers check that first: the entry's 404, or the
 * notification's recipient). PUBLIC costs nothing more than the block rule; the others one
 * probe of the comment_addressees primary key and of follows_pair_unique each.
 */
export function commentReadableSql(userId: string, userActorId: string, c: string): string {
  const follows = (followed: string) =>
    `EXISTS (SELECT 1 FROM follows rd_f WHERE rd_f.follower_id = ${userActorId}
      AND rd_f.followed_id = ${followed} AND rd_f.state = 'ACCEPTED')`;
  const ownerUser = `(SELECT rd_b.user_id FROM beverages rd_b WHERE rd_b.id = ${c}.beverage_id)`;
  // A local entry's owner's actor, or the remote account whose entry it is.
  const ownerActor = `coalesce(
      (SELECT rd_a.id FROM beverages rd_b JOIN actors rd_a ON rd_a.user_id = rd_b.user_id
        WHERE rd_b.id = ${c}.beverage_id),
      (SELECT rd_r.actor_id FROM remote_entries rd_r WHERE rd_r.id = ${c}.remote_entry_id))`;
  return `(NOT ${blockedEitherWaySql(userId, userActorId, `${c}.actor_id`)} AND (
    ${c}.audience = 'PUBLIC' OR ${c}.actor_id = ${userActorId}
    OR EXISTS (SELECT 1 FROM comment_addressees rd_ca WHERE rd_ca.comment_id = ${c}.id
      AND rd_ca.actor_id = ${userActorId})
    OR (${c}.audience IN ('OWNER_FOLLOWERS', 'AUTHOR_FOLLOWERS') AND ${ownerUser} = ${userId})
    OR (${c}.audience = 'OWNER_FOLLOWERS' AND ${follows(ownerActor)})
    OR (${c}.audience = 'AUTHOR_FOLLOWERS' AND ${follows(`${c}.actor_id`)})))`;
}

/** Whether an entry goes to the owner's remote followers (when the owner federates at all). */
export function isFederatedEntry(entry: { visibility: Visibility; federated: boolean }): boolean {
  return entry.federated && entry.visibility !== 'PRIVATE';
}

/** What deciding whether a viewer sees an entry may ask about the entry's owner and the viewer. */
interface Questions {
  /** Whether one of the viewer and the owner blocked the other. */
  blocked(ownerId: number): Promise<boolean>;
  /** Whether the viewer follows the owner (an accepted local follow). */
  follows(ownerId: number): Promise<boolean>;
  /** Whether the entry is shared with the viewer (pending or accepted). */
  sharedWithViewer(entry: VisibleThing): Promise<boolean>;
}

/**
 * The answer kept under `key`, asked for the first time. The promise is kept, so that answers
 * asked for at once (entries of one owner checked together) ask once.
 */
function remembered<T>(answers: Map<number, Promise<T>>, key: number, ask: () => Promise<T>) {
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = ask();
    answers.set(key, answer);
  }
  return answer;
}

/**
 * The one place that decides who may see an entry and its photo (docs/social.md, "Visibility").
 * The entry list of another user, search, GET of one entry, clone, the media route, the activity
 * feed and sharing all ask it; nothing else compares ids or roles to decide what someone sees
 * (the rules for *changing* an entry stay in src/beverages/service.ts). Federation asks
 * `isFederatedEntry` / `FEDERATED_ENTRY_SQL`.
 *
 * The rule: the owner and admins see every entry; share recipients see the entries shared with
 * them; other signed-in users see MEMBERS entries, and FOLLOWERS entries when they follow the
 * owner (an accepted local follow); PRIVATE entries nobody else. Between two users one of whom
 * blocked the other, neither sees the other's entries, not even MEMBERS or shared ones
 * (src/blocks/); admins keep seeing everything. Anonymous requests see no entry. The checks
 * are ordered cheapest first: the owner and admins cost no query, a MEMBERS entry one.
 */
export function createVisibilityPolicy(deps: {
  /** Whether one of two local users blocked the other. One indexed lookup each way. */
  blockedBetween(userId: number, otherId: number): Promise<boolean>;
  /** Whether the entry is shared with the user (pending or accepted). One indexed lookup. */
  isShareRecipient(entryId: number, userId: number): Promise<boolean>;
  /** Whether the user follows the owner (an accepted local follow). One indexed lookup. */
  followsOwner(userId: number, ownerId: number): Promise<boolean>;
  /** The ids of the owner's entries shared with the user (pending or accepted). */
  sharedByOwnerWith(ownerId: number, userId: number): Promise<number[]>;
  /** The entry or user a stored photo path belongs to, or null for none. */
  photoOwner(storedPath: string): Promise<PhotoOwner>;
}) {
  async function decide(
    viewer: VisibilityViewer,
    entry: VisibleThing,
    ask: Questions,
  ): Promise<boolean> {
    if (!viewer) return false;
    if (entry.userId === viewer.id || viewer.role === 'ADMIN') return true;
    if (await ask.blocked(entry.userId)) return false;
    if (entry.visibility === 'MEMBERS') return true;
    if (entry.visibility === 'FOLLOWERS' && (await ask.follows(entry.userId))) return true;
    return ask.sharedWithViewer(entry);
  }

  function canSee(viewer: VisibilityViewer, entry: VisibleThing): Promise<boolean> {
    return decide(viewer, entry, {
      blocked: (ownerId) => deps.blockedBetween(viewer!.id, ownerId),
      follows: (ownerId) => deps.followsOwner(viewer!.id, ownerId),
      sharedWithViewer: (thing) => deps.isShareRecipient(thing.id, viewer!.id),
    });
  }

  return {
    canSee,

    /**
     * canSee for many entries at once (a page of the activity feed): what it asks about the
     * viewer and an owner (a block either way, a follow, the owner's entries shared with the
     * viewer) is asked once per owner, however many of the owner's entries are asked about.
     */
    canSeeEach(viewer: VisibilityViewer): (entry: VisibleThing) => Promise<boolean> {
      const blocked = new Map<number, Promise<boolean>>();
      const follows = new Map<number, Promise<boolean>>();
      const shared = new Map<number, Promise<ReadonlySet<number>>>();
      const ask: Questions = {
        blocked: (ownerId) =>
          remembered(blocked, ownerId, () => deps.blockedBetween(viewer!.id, ownerId)),
        follows: (ownerId) =>
          remembered(follows, ownerId, () => deps.followsOwner(viewer!.id, ownerId)),
        sharedWithViewer: async (entry) =>
          (
            await remembered(
              shared,
              entry.userId,
              async () => new Set(await deps.sharedByOwnerWith(entry.userId, viewer!.id)),
            )
          ).has(entry.id),
      };
      return (entry) => decide(viewer, entry, ask);
    },

    /** Whether the viewer may see everything another user logged (their own or an admin). */
    canSeeAllOf(viewer: VisibilityViewer, ownerId: number): boolean {
      if (!viewer) return false;
      return viewer.id === ownerId || viewer.role === 'ADMIN';
    },

    /**
     * Which of the owner's entries the viewer sees, for a list filtered in SQL; 'all' when the
     * viewer sees every one (canSeeAllOf), null for none (an anonymous request, or one of the
     * two blocked the other).
     */
    async scopeOf(viewer: VisibilityViewer, ownerId: number): Promise<EntryScope | 'all' | null> {
      if (!viewer) return null;
      if (viewer.id === ownerId || viewer.role === 'ADMIN') return 'all';
      if (await deps.blockedBetween(viewer.id, ownerId)) return null;
      const visibilities: Visibility[] = (await deps.followsOwner(viewer.id, ownerId))
        ? ['MEMBERS', 'FOLLOWERS']
        : ['MEMBERS'];
      return { visibilities, sharedIds: await deps.sharedByOwnerWith(ownerId, viewer.id) };
    },

    /** Whether the viewer may see whom an entry of `ownerId` is shared with (`sharedWith`). */
    canSeeSharesOf(viewer: VisibilityViewer, ownerId: number): boolean {
      if (!viewer) return false;
      return viewer.id === ownerId || viewer.role === 'ADMIN';
    },

    /**
     * Whether the viewer may see a stored image ('media/…' or 'media/avatars/…'). Avatars are
     * public: they are actors' icons, which other fediverse servers fetch. A bottle photo, and
     * the photo of a tasting, is visible to whoever may see the entry it belongs to; a path that
     * belongs to nothing is not.
     * Admins need no lookup; anyone else costs one indexed lookup of the owning entry.
     */
    async canSeePhoto(viewer: VisibilityViewer, storedPath: string): Promise<boolean> {
      if (storedPath.startsWith('media/avatars/')) return true;
      if (!viewer) return false;
      if (viewer.role === 'ADMIN') return true;
      const owner = await deps.photoOwner(storedPath);
      if (!owner) return false;
      if (owner.kind === 'entry' || owner.kind === 'tasting') return canSee(viewer, owner.entry);
      return true;
    },
  };
}

export type VisibilityPolicy = ReturnType<typeof createVisibilityPolicy>;

import type { Role } from '../db/schema/index.ts';

/** Who is asking: a signed-in user, or null for an anonymous request. */
export type VisibilityViewer = { id: number; role: Role } | null;

/** What the policy needs to know of an entry. */
export interface VisibleThing {
  id: number;
  userId: number;
}

/** What owns a stored photo path ('media/…'). */
export type PhotoOwner =
  { kind: 'entry'; entry: VisibleThing } | { kind: 'avatar'; userId: number } | null;

/**
 * The one place that decides who may see an entry and its photo (docs/social.md, "Visibility").
 * The entry list of another user, GET of one entry, clone, the media route, the activity feed and
 * sharing all ask it; nothing else compares ids or roles to decide what someone sees (the rules
 * for *changing* an entry stay in src/beverages/service.ts).
 *
 * The rule today: the owner, admins, share recipients and every signed-in user of the vault (a
 * public profile shows entries read-only); anonymous requests see no entry. Per-entry privacy
 * changes `MEMBERS_SEE_EVERY_ENTRY` and, where needed, what the checks below consult; callers
 * stay as they are. The checks are ordered cheapest first, so with today's rule no query is made.
 */
const MEMBERS_SEE_EVERY_ENTRY = true;

export function createVisibilityPolicy(deps: {
  /** Whether the entry is shared with the user (pending or accepted). One indexed lookup. */
  isShareRecipient(entryId: number, userId: number): boolean;
  /** The entry or user a stored photo path belongs to, or null for none. */
  photoOwner(storedPath: string): PhotoOwner;
  /** Only tests change it, to exercise the lookups the vault-wide rule makes unnecessary. */
  membersSeeEveryEntry?: boolean;
}) {
  const membersSeeEveryEntry = deps.membersSeeEveryEntry ?? MEMBERS_SEE_EVERY_ENTRY;

  function canSee(viewer: VisibilityViewer, entry: VisibleThing): boolean {
    if (!viewer) return false;
    if (entry.userId === viewer.id) return true;
    if (viewer.role === 'ADMIN') return true;
    if (membersSeeEveryEntry) return true;
    return deps.isShareRecipient(entry.id, viewer.id);
  }

  return {
    canSee,

    /**
     * Whether the viewer may see everything another user logged (their entry list). When this
     * is false, a list shows only the entries `canSee` allows one by one.
     */
    canSeeAllOf(viewer: VisibilityViewer, ownerId: number): boolean {
      if (!viewer) return false;
      return viewer.id === ownerId || viewer.role === 'ADMIN' || membersSeeEveryEntry;
    },

    /** Whether the viewer may see whom an entry of `ownerId` is shared with (`sharedWith`). */
    canSeeSharesOf(viewer: VisibilityViewer, ownerId: number): boolean {
      if (!viewer) return false;
      return viewer.id === ownerId || viewer.role === 'ADMIN';
    },

    /**
     * Whether the viewer may see a stored image ('media/…' or 'media/avatars/…'). Avatars are
     * public: they are actors' icons, which other fediverse servers fetch. A bottle photo is
     * visible to whoever may see the entry it belongs to; a path that belongs to nothing is not.
     * The owning entry is looked up only when the rule needs it.
     */
    canSeePhoto(viewer: VisibilityViewer, storedPath: string): boolean {
      if (storedPath.startsWith('media/avatars/')) return true;
      if (!viewer) return false;
      if (viewer.role === 'ADMIN' || membersSeeEveryEntry) return true;
      const owner = deps.photoOwner(storedPath);
      if (!owner) return false;
      if (owner.kind === 'avatar') return true;
      return canSee(viewer, owner.entry);
    },
  };
}

export type VisibilityPolicy = ReturnType<typeof createVisibilityPolicy>;

/**
 * The TanStack Query keys of every piece of server state the client keeps, in one place so a
 * change made anywhere can invalidate exactly what it affects. A key is an array: invalidating a
 * prefix (`queryKeys.beverages.all`) invalidates every key that starts with it.
 */
import type { BeverageQuery } from './types.ts';

/** What one list of entries shows: GET /beverages's filters without the paging. */
export type BeverageListFilter = Omit<BeverageQuery, 'limit' | 'cursor'>;

/** How a list of entries is paged (part of its key). */
export interface BeverageListShape {
  pageSize: number;
  fixed: boolean;
}

export const queryKeys = {
  beverages: {
    /** Every list of entries (dashboard, archive, cellar, search, public profiles). */
    all: ['beverages'] as const,
    /**
     * One paged list (useInfiniteQuery). `pageSize` is how many a page holds; a `fixed` list (the
     * dashboard's four cards) never grows and is fetched again when it loses one.
     */
    list: (filter: BeverageListFilter, shape: BeverageListShape) =>
      ['beverages', 'list', filter, shape] as const,
  },
  /** GET /notifications: the Alerts panel and its badge. */
  notifications: ['notifications'] as const,
  /** GET /users/following: the people the signed-in user follows. */
  following: ['following'] as const,
  /** GET /users/followers: who follows the signed-in user. */
  followers: ['followers'] as const,
  /** GET /activity, paged (useInfiniteQuery). */
  activity: ['activity'] as const,
  /** GET /users/search?q: '+ Follow' and the Sharing panel; `all` for invalidation. */
  userSearch: {
    all: ['user-search'] as const,
    query: (q: string) => ['user-search', q] as const,
  },
  /** GET /users/profiles/{username}: a public profile. */
  profile: (username: string) => ['profile', username] as const,
  /** Every public profile (their follow state changes when the user follows someone). */
  profiles: ['profile'] as const,
  /** GET /users: the admin's user registry. */
  users: ['users'] as const,
  /** GET /webauthn/admin/users/{id}/credentials: a user's security keys, as the admin sees them. */
  userCredentials: (userId: number) => ['user-credentials', userId] as const,
  /** GET /auth/sessions: the signed-in user's live sessions (profile screen). */
  sessions: ['sessions'] as const,
  /** The cellar beyond the 'In cellar' flag: its figures, places and bottles by place. */
  cellar: {
    /** Everything below (a place renamed or moved changes every bottle's path). */
    all: ['cellar'] as const,
    /** GET /cellar: the figures (cellar screen and the dashboard's count). */
    summary: ['cellar', 'summary'] as const,
    /** GET /cellar/places. */
    places: ['cellar', 'places'] as const,
    /** GET /cellar/bottles with a filter, paged (useInfiniteQuery). */
    bottles: (filter: Record<string, string | undefined>) => ['cellar', 'bottles', filter] as const,
  },
} as const;

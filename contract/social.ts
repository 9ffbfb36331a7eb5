import { z } from 'zod';
import { beverageSchema } from './beverages.ts';
import { conversationCountsSchema } from './conversation.ts';
import { tastingSchema } from './tastings.ts';
import { remoteEntryBasicsSchema } from './entry-basics.ts';
import {
  BEVERAGE_STATUSES,
  NOTIFICATION_ACTIONS,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
} from './enums.ts';
import { userSummarySchema } from './users.ts';
import { integerQuery } from './query-fields.ts';

/**
 * GET /users/search?q: a local user, marked when the caller already follows them (`following`)
 * or has asked to and waits for them to accept (`requested`).
 */
export const userSearchResultSchema = userSummarySchema.extend({
  following: z.boolean(),
  requested: z.boolean(),
});
export type UserSearchResult = z.infer<typeof userSearchResultSchema>;
export const USER_SEARCH_MIN_LENGTH = 2;
export const USER_SEARCH_MAX_RESULTS = 20;
export const SEARCH_TOO_SHORT = 'Enter at least two characters to search.';

/** GET /users/search?q: at least USER_SEARCH_MIN_LENGTH characters once trimmed. */
export const userSearchQuerySchema = z.object({
  q: z
    .string({ error: SEARCH_TOO_SHORT })
    .max(200, 'Search text must be at most 200 characters long'),
});

/** The answer of GET /users/search: at most USER_SEARCH_MAX_RESULTS users. */
export const userSearchAnswerSchema = z.object({ users: z.array(userSearchResultSchema) });

/** POST /users/{id}/follow: the body is optional, and if sent it is an empty object. */
export const followBodySchema = z
  .object({}, { error: 'The request body must be an empty JSON object' })
  .strict();

/**
 * A follow of the caller's (POST /users/{id}/follow answers `follow`; GET /users/following lists
 * them). PENDING: a request to a user who approves followers, not accepted yet ('Requested');
 * it shows nothing that needs following until it is ACCEPTED.
 */
export const followingItemSchema = z.object({
  followId: z.number().int(),
  user: userSummarySchema,
  state: z.enum(['PENDING', 'ACCEPTED']),
  followedAt: z.string(),
});
export type FollowingItem = z.infer<typeof followingItemSchema>;

/** POST /users/{id}/follow answers the new follow (PENDING when the user approves followers). */
export const followAnswerSchema = z.object({ follow: followingItemSchema });

/**
 * Someone who follows the caller (accepted follows only: requests wait in the Alerts panel): a
 * local user, or a fediverse account. `actorId` is for DELETE /users/followers/{actorId}
 * (remove a follower).
 */
export const followerSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('local'),
    actorId: z.number().int(),
    user: userSummarySchema,
    followedAt: z.string(),
  }),
  z.object({
    kind: z.literal('federated'),
    actorId: z.number().int(),
    displayName: z.string(),
    actorUri: z.string(),
    handle: z.string().nullable(),
    summary: z.string(),
    avatarUrl: z.string().nullable(),
    followedAt: z.string(),
  }),
]);
export type Follower = z.infer<typeof followerSchema>;

/** GET /users/followers. */
export const followerListSchema = z.object({ followers: z.array(followerSchema) });

/**
 * The one who caused a notification, and where the caller stands with them now: `following`
 * when the caller follows them, `requested` when the caller asked to follow a fediverse account
 * that has not accepted yet. 'Follow back' is offered only when both are false.
 */
export const notificationSenderSchema = z.object({
  fullName: z.string(),
  username: z.string().nullable(),
  following: z.boolean(),
  requested: z.boolean(),
});

export const notificationSchema = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  status: z.enum(NOTIFICATION_STATUSES),
  sender: notificationSenderSchema,
  /** The entry's name: the shared one (SHARE_INVITE), the cheered or commented one (CHEER, COMMENT); else null. */
  beverage: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /**
   * `message`: the sharer's message (SHARE_INVITE), the comment's text (COMMENT, REPLY,
   * MENTION). `url`: a link to the original post (a MENTION from a fediverse post that is not a
   * comment under an entry here).
   */
  payload: z.object({ message: z.string().optional(), url: z.string().optional() }),
  createdAt: z.string(),
});
export type VaultNotification = z.infer<typeof notificationSchema>;

/**
 * POST /notifications/{id}/respond. `status` is for share invites only (TRIED or TO_TRY). A
 * CHEER or COMMENT notification is dismissed with DECLINE (there is nothing to accept: ACCEPT is
 * a 400).
 */
export const respondBodySchema = z
  .object({
    action: z.enum(NOTIFICATION_ACTIONS, { error: 'action must be ACCEPT or DECLINE' }),
    status: z.enum(BEVERAGE_STATUSES, { error: 'Status must be TRIED or TO_TRY' }).optional(),
  })
  .strict();
export type RespondBody = z.infer<typeof respondBodySchema>;

export const respondResultSchema = z.object({
  notification: notificationSchema,
  /** The entry an accepted share put into the caller's vault. */
  beverage: beverageSchema.optional(),
});
export type RespondResult = z.infer<typeof respondResultSchema>;

/** GET /notifications: the caller's notifications, newest first. */
export const notificationListSchema = z.object({ notifications: z.array(notificationSchema) });

/** One item of the activity feed: who logged which entry of this vault, and when. */
export const localActivityItemSchema = z.object({
  id: z.number().int(),
  kind: z.literal('local'),
  actor: z.object({ fullName: z.string(), username: z.string() }),
  beverage: beverageSchema,
  createdAt: z.string(),
});
export type LocalActivityItem = z.infer<typeof localActivityItemSchema>;

/**
 * One item of the activity feed: a tasting of an entry of this vault, by someone the caller
 * follows (`actor`), with the entry it is a tasting of; shown while the caller may see the
 * entry. `createdAt` is when the tasting was logged (its day is `tasting.tastedOn`).
 */
export const tastingActivityItemSchema = z.object({
  id: z.number().int(),
  kind: z.literal('tasting'),
  actor: z.object({ fullName: z.string(), username: z.string() }),
  tasting: tastingSchema,
  beverage: beverageSchema,
  createdAt: z.string(),
});
export type TastingActivityItem = z.infer<typeof tastingActivityItemSchema>;

/**
 * An entry received from a remote vault (a Note with the vault extension), read-only. `id` is
 * the remote entry's own id (POST /activity/remote-entries/{id}/clone, …/cheer and …/comments
 * take it), never a Beverage id. All text is the remote's, as plain text: never to be rendered
 * as HTML. Its conversation counts are those of this vault's users (contract/conversation.ts).
 */
export const remoteEntrySchema = z.object({
  ...conversationCountsSchema.shape,
  id: z.number().int(),
  ...remoteEntryBasicsSchema.shape,
  /**
   * Set when what arrived is a tasting of the entry by the remote actor (rating and notes are
   * then the tasting's): its day, whether a bottle was opened, and the bottle's vintage.
   */
  tasting: z
    .object({ tastedOn: z.string(), opened: z.boolean(), vintage: z.number().int().nullable() })
    .nullable(),
  /** The vault's own copy of the photo ('media/<hex>.jpg', served at '/' + photoPath), or null. */
  photoPath: z.string().nullable(),
  /** The Note's id on the remote server. */
  noteUri: z.string(),
  /** When the remote published and last edited it. */
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RemoteEntry = z.infer<typeof remoteEntrySchema>;

/** A remote vault's actor in the feed: display name (may be ''), '@name@host' handle, actor id. */
export const feedRemoteActorSchema = z.object({
  fullName: z.string(),
  handle: z.string(),
  actorUri: z.string(),
});

/** One item of the activity feed from a remote vault actor; `createdAt` is when it arrived. */
export const remoteActivityItemSchema = z.object({
  id: z.number().int(),
  kind: z.literal('remote'),
  actor: feedRemoteActorSchema,
  beverage: remoteEntrySchema,
  createdAt: z.string(),
});
export type RemoteActivityItem = z.infer<typeof remoteActivityItemSchema>;

/**
 * One item of the activity feed: a local entry, a tasting of one, or a received remote entry
 * (`kind`).
 */
export const activityItemSchema = z.discriminatedUnion('kind', [
  localActivityItemSchema,
  tastingActivityItemSchema,
  remoteActivityItemSchema,
]);
export type ActivityItem = z.infer<typeof activityItemSchema>;

/** GET /activity?cursor&limit: newest first; nextCursor is null on the last page. */
export const activityPageSchema = z.object({
  activities: z.array(activityItemSchema),
  nextCursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;
export const ACTIVITY_DEFAULT_LIMIT = 20;
export const ACTIVITY_MAX_LIMIT = 50;

const ACTIVITY_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`;

/** GET /activity?cursor&limit: `cursor` is the previous page's nextCursor. */
export const activityQuerySchema = z.object({
  cursor: z
    .string()
    .max(100, 'The cursor is not valid; start again from the first page.')
    .optional()
    .meta({ description: "The previous page's nextCursor" }),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, ACTIVITY_LIMIT_MESSAGE)
    .transform(Number)
    .refine((n) => n <= ACTIVITY_MAX_LIMIT, ACTIVITY_LIMIT_MESSAGE)
    .optional()
    .meta({
      description: `Items a page holds: ${ACTIVITY_DEFAULT_LIMIT} when left out`,
      ...integerQuery(1, ACTIVITY_MAX_LIMIT),
    }),
});

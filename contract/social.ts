import { z } from 'zod';
import { beverageSchema } from './beverages.ts';
import {
  BEVERAGE_STATUSES,
  NOTIFICATION_ACTIONS,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
} from './enums.ts';
import { userSummarySchema } from './users.ts';

/** GET /users/search?q: a local user, marked when the caller already follows them. */
export const userSearchResultSchema = userSummarySchema.extend({ following: z.boolean() });
export type UserSearchResult = z.infer<typeof userSearchResultSchema>;
export const USER_SEARCH_MIN_LENGTH = 2;
export const USER_SEARCH_MAX_RESULTS = 20;

/** POST /users/{id}/follow: the body is optional, and if sent it is an empty object. */
export const followBodySchema = z
  .object({}, { error: 'The request body must be an empty JSON object' })
  .strict();

/** A follow of the caller's (POST /users/{id}/follow answers `follow`; GET /users/following lists them). */
export const followingItemSchema = z.object({
  followId: z.number().int(),
  user: userSummarySchema,
  followedAt: z.string(),
});
export type FollowingItem = z.infer<typeof followingItemSchema>;

/** Someone who follows the caller: a local user, or a fediverse account (next to come). */
export const followerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local'), user: userSummarySchema, followedAt: z.string() }),
  z.object({
    kind: z.literal('federated'),
    displayName: z.string(),
    actorUri: z.string(),
    handle: z.string().nullable(),
    summary: z.string(),
    avatarUrl: z.string().nullable(),
    followedAt: z.string(),
  }),
]);
export type Follower = z.infer<typeof followerSchema>;

/** The one who caused a notification. */
export const notificationSenderSchema = z.object({
  fullName: z.string(),
  username: z.string().nullable(),
});

export const notificationSchema = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  status: z.enum(NOTIFICATION_STATUSES),
  sender: notificationSenderSchema,
  /** The shared entry's name (SHARE_INVITE), else null. */
  beverage: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  payload: z.object({ message: z.string().optional() }),
  createdAt: z.string(),
});
export type VaultNotification = z.infer<typeof notificationSchema>;

/** POST /notifications/{id}/respond. `status` is for share invites only (TRIED or TO_TRY). */
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

/** One item of the activity feed: who logged which entry, and when. */
export const activityItemSchema = z.object({
  id: z.number().int(),
  actor: z.object({ fullName: z.string(), username: z.string() }),
  beverage: beverageSchema,
  createdAt: z.string(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

/** GET /activity?cursor&limit: newest first; nextCursor is null on the last page. */
export const activityPageSchema = z.object({
  activities: z.array(activityItemSchema),
  nextCursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;
export const ACTIVITY_DEFAULT_LIMIT = 20;
export const ACTIVITY_MAX_LIMIT = 50;

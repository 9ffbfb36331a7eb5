// The enumerations of the /api contract: plain data, shared by the database schema, the
// server's validation and the web client.

export const ROLES = ['USER', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export const BEVERAGE_TYPES = ['WHISKEY', 'WINE', 'BEER'] as const;
export type BeverageType = (typeof BEVERAGE_TYPES)[number];

export const BEVERAGE_STATUSES = ['TRIED', 'TO_TRY'] as const;
export type BeverageStatus = (typeof BEVERAGE_STATUSES)[number];

/**
 * Who may see an entry: only its owner (PRIVATE), the owner's accepted local followers
 * (FOLLOWERS), or every signed-in user of the vault (MEMBERS, the default). The owner, admins and
 * the users it is shared with always see it (src/visibility/policy.ts).
 */
export const VISIBILITIES = ['PRIVATE', 'FOLLOWERS', 'MEMBERS'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * FOLLOW_INVITE: someone followed the user. FOLLOW_REQUEST: someone asks to follow a user who
 * approves followers (ACCEPT lets them in, DECLINE refuses). SHARE_INVITE: an entry shared with
 * the user. CHEER and COMMENT: someone cheered or commented on the user's entry. REPLY: someone
 * answered the user's comment. COMMENT_CHEER: someone cheered the user's comment. MENTION:
 * someone mentioned the user (`@name`) in a comment or, from the fediverse, in any post (its
 * text in `message`, a link to the original in `url`). All but the first three are dismiss only.
 */
export const NOTIFICATION_TYPES = [
  'FOLLOW_INVITE',
  'FOLLOW_REQUEST',
  'SHARE_INVITE',
  'CHEER',
  'COMMENT',
  'REPLY',
  'COMMENT_CHEER',
  'MENTION',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NOTIFICATION_ACTIONS = ['ACCEPT', 'DECLINE'] as const;
export type NotificationAction = (typeof NOTIFICATION_ACTIONS)[number];

/**
 * Who may read a comment besides its author and the people it is addressed to (mentioned, or
 * answered privately), always among those who may see the entry (docs/social.md, "Who reads a
 * reply"): PUBLIC everyone who may see the entry; OWNER_FOLLOWERS the entry owner and their
 * followers; AUTHOR_FOLLOWERS the entry owner and the author's followers (Mastodon's
 * followers-only reply); DIRECT nobody else (a private reply).
 */
export const COMMENT_AUDIENCES = [
  'PUBLIC',
  'OWNER_FOLLOWERS',
  'AUTHOR_FOLLOWERS',
  'DIRECT',
] as const;
export type CommentAudience = (typeof COMMENT_AUDIENCES)[number];

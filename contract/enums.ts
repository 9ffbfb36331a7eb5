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
 * the user. CHEER and COMMENT: someone cheered or commented on the user's entry (dismiss only).
 */
export const NOTIFICATION_TYPES = [
  'FOLLOW_INVITE',
  'FOLLOW_REQUEST',
  'SHARE_INVITE',
  'CHEER',
  'COMMENT',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NOTIFICATION_ACTIONS = ['ACCEPT', 'DECLINE'] as const;
export type NotificationAction = (typeof NOTIFICATION_ACTIONS)[number];

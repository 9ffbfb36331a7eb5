/**
 * Shapes of the /api contract. They are defined once, in the repository's contract/ folder (zod
 * schemas and the types inferred from them), and only their TYPES come here: `export type`
 * brings no zod into the bundle.
 */
export type {
  BeverageStatus,
  BeverageType,
  NotificationAction,
  NotificationStatus,
  NotificationType,
  Role,
} from '../../../contract/enums.ts';
export type { PublicProfile, User, UserSummary } from '../../../contract/users.ts';
export type {
  LoginAnswer,
  SecurityKeyCredential,
  SessionGrant,
  SessionInfo,
  TotpSetupData,
} from '../../../contract/auth.ts';
export type { AuthenticationOptions, RegistrationOptions } from '../../../contract/webauthn.ts';
export type {
  Beverage,
  BeveragePage,
  BeverageQuery,
  CloneBody,
  ShareBody,
  ShareUser,
} from '../../../contract/beverages.ts';
export type {
  ActivityItem,
  ActivityPage,
  Follower,
  FollowingItem,
  RespondBody,
  RespondResult,
  TastingActivityItem,
  UserSearchResult,
  VaultNotification,
} from '../../../contract/social.ts';

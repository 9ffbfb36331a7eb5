/**
 * Shapes of the /api contract. They are defined once, in the repository's contract/ folder (zod
 * schemas and the types inferred from them), and only their TYPES come here: `export type`
 * brings no zod into the bundle. What is below the re-exports is the client's own.
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
export type { SecurityKeyCredential, SessionInfo, TotpSetupData } from '../../../contract/auth.ts';
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
  UserSearchResult,
  VaultNotification,
} from '../../../contract/social.ts';

import type { SecurityKeyCredential } from '../../../contract/auth.ts';
import type { User } from '../../../contract/users.ts';

/** What POST /auth/login can answer, as one value the client switches on. */
export type LoginResult =
  | { kind: 'signed-in'; user: User; credentials: SecurityKeyCredential[] }
  | { kind: 'webauthn'; options: unknown; credentials: SecurityKeyCredential[] }
  | { kind: 'totp'; user: User | null };

/** A signed-in session as the server hands it over. */
export interface SessionGrant {
  user: User;
  credentials: SecurityKeyCredential[];
}

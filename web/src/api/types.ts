/** Shapes of the /api contract. Types only: nothing here runs. */

export type Role = 'USER' | 'ADMIN';

export interface User {
  id: number;
  username: string;
  fullName: string;
  email: string;
  role: Role;
  bio: string | null;
  avatarPath: string | null;
  createdAt: string;
  webauthnEnabled: boolean;
  totpEnabled: boolean;
  activityPubEnabled: boolean;
  activityPubHandle: string | null;
  activityPubActorUrl: string | null;
}

/** What any signed-in user sees of another (GET /users/profiles/{username}). */
export type PublicProfile = Omit<User, 'email' | 'webauthnEnabled' | 'totpEnabled'>;

export interface SecurityKeyCredential {
  id: number;
  credentialId: string;
  nickname: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  transports: string[];
}

export type NotificationType = 'FOLLOW_INVITE' | 'SHARE_INVITE';

export interface VaultNotification {
  id: number;
  type: NotificationType;
  status: string;
  sender: { fullName: string; username?: string } | null;
  beverage: { name: string } | null;
  payload: { message?: string } | null;
  createdAt?: string;
}

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

export type BeverageType = 'WHISKEY' | 'WINE' | 'BEER';
export type BeverageStatus = 'TRIED' | 'TO_TRY';

/** A user an entry is shared with. */
export interface ShareUser {
  id: number;
  username: string;
  fullName: string;
}

/** A beverage entry. */
export interface Beverage {
  id: number;
  userId: number;
  type: BeverageType;
  name: string;
  subtype: string;
  /** '' when none. */
  makerName: string;
  /** 0 to 5; 0 while to-try. */
  rating: number;
  /** '' when none. */
  notes: string;
  status: BeverageStatus;
  inCellar: boolean;
  /** 'media/<hex>.jpg', served at '/' + photoPath; null when there is no photo. */
  photoPath: string | null;
  createdAt: string;
  isOwner: boolean;
  ownerName: string;
  sharedWithCurrentUser: boolean;
  sharedWith: ShareUser[];
}

/** What GET /beverages filters on. Every field is optional. */
export interface BeverageQuery {
  userId?: number;
  type?: BeverageType;
  status?: BeverageStatus;
  /** Free text, already trimmed; left out when empty. */
  q?: string;
  cellar?: boolean;
  limit?: number;
  cursor?: string;
}

/** One page of GET /beverages: newest first; nextCursor is null on the last page. */
export interface BeveragePage {
  beverages: Beverage[];
  nextCursor: string | null;
}

/** One live session of the signed-in user (GET /auth/sessions). */
export interface SessionInfo {
  /** A public handle of the session, for DELETE /auth/sessions/{id}. */
  id: string;
  /** This browser's own session. */
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ipAddress: string | null;
}

/** What POST /totp/setup answers ("TOTP setup data"). Shown once. */
export interface TotpSetupData {
  secret: string;
  otpAuthUrl: string;
  /** An image data URL (PNG). */
  qrCode: string;
  backupCodes: string[];
}

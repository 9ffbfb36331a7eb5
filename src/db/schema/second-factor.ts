import { blob, index, integer, sqliteTable, text, unique } from '../orm.ts';
import { sessions, users } from './users.ts';

export const PENDING_LOGIN_KINDS = ['webauthn', 'totp'] as const;
export type PendingLoginKind = (typeof PENDING_LOGIN_KINDS)[number];

/**
 * A registered security key (WebAuthn credential). `credentialId` is the authenticator's id
 * (base64url); `publicKey` the COSE public key; `counter` the last signature counter seen.
 */
export const webauthnCredentials = sqliteTable(
  'webauthn_credentials',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: blob('public_key', { mode: 'buffer' }).notNull(),
    counter: integer('counter').notNull().default(0),
    transports: text('transports', { mode: 'json' }).$type<string[]>().notNull().default([]),
    /** The WebAuthn user handle (base64url), the same for all of a user's keys. */
    userHandle: text('user_handle').notNull(),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull().default(false),
    nickname: text('nickname'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('webauthn_credentials_user_id_idx').on(t.userId)],
);

/**
 * A registration ceremony in progress: one per session, single-use, short-lived. Ends with the
 * session that started it.
 */
export const webauthnRegistrations = sqliteTable('webauthn_registrations', {
  sessionIdHash: text('session_id_hash')
    .primaryKey()
    .references(() => sessions.idHash, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  challenge: text('challenge').notNull(),
  /** The WebAuthn user handle offered in the options (base64url), stored with the new key. */
  userHandle: text('user_handle').notNull(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * An authenticator-app (TOTP) secret. Unconfirmed until the first code is verified; then
 * users.totp_enabled is on. `lastUsedStep` is the last accepted time step (replay protection).
 */
export const totpSecrets = sqliteTable('totp_secrets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmed: integer('confirmed', { mode: 'boolean' }).notNull().default(false),
  lastUsedStep: integer('last_used_step'),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});

/** Single-use backup codes of the authenticator app, stored as SHA-256 of the normalised code. */
export const backupCodes = sqliteTable(
  'backup_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [unique('backup_codes_user_code_unique').on(t.userId, t.codeHash)],
);

/**
 * A sign-in that passed the password step and waits for its second factor. Never a session: the
 * browser holds a random token in its own cookie; only its SHA-256 is stored. Single-use,
 * short-lived, with a count of failed second-step attempts.
 */
export const pendingLogins = sqliteTable(
  'pending_logins',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PENDING_LOGIN_KINDS }).notNull(),
    /** The WebAuthn challenge (base64url) of a 'webauthn' pending login. */
    challenge: text('challenge'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('pending_logins_user_id_idx').on(t.userId),
    index('pending_logins_expires_at_idx').on(t.expiresAt),
  ],
);

export type WebauthnCredentialRow = typeof webauthnCredentials.$inferSelect;
export type WebauthnRegistrationRow = typeof webauthnRegistrations.$inferSelect;
export type TotpSecretRow = typeof totpSecrets.$inferSelect;
export type BackupCodeRow = typeof backupCodes.$inferSelect;
export type PendingLoginRow = typeof pendingLogins.$inferSelect;

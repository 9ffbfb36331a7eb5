import { sql, index, integer, sqliteTable, text } from '../orm.ts';

import { ROLES, VISIBILITIES } from '../../../contract/enums.ts';

export { ROLES, type Role } from '../../../contract/enums.ts';

/** A vault account. Handles and actor URLs are derived from username + VAULT_ORIGIN, never stored. */
export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  username: text('username').notNull().unique(),
  fullName: text('full_name').notNull(),
  email: text('email').notNull(),
  role: text('role', { enum: ROLES }).notNull().default('USER'),
  bio: text('bio').notNull().default(''),
  avatarPath: text('avatar_path'),
  passwordHash: text('password_hash').notNull(),
  webauthnEnabled: integer('webauthn_enabled', { mode: 'boolean' }).notNull().default(false),
  totpEnabled: integer('totp_enabled', { mode: 'boolean' }).notNull().default(false),
  activityPubEnabled: integer('activitypub_enabled', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
  /** The visibility a new entry gets when the form does not say. */
  defaultVisibility: text('default_visibility', { enum: VISIBILITIES })
    .notNull()
    .default('MEMBERS'),
  /**
   * Whether follows of this user are requests that the user accepts or declines (the
   * fediverse's manuallyApprovesFollowers); off: follows are accepted at once.
   */
  approveFollowers: integer('approve_followers', { mode: 'boolean' }).notNull().default(false),
});

/** Signed-in sessions. The cookie carries a random token; only its SHA-256 is stored. */
export const sessions = sqliteTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    userAgent: text('user_agent').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
    /** When the password was last entered again in this session (second-factor changes). */
    reauthenticatedAt: integer('reauthenticated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

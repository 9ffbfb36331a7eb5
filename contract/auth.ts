import { z } from 'zod';
import { userSchema } from './users.ts';
import { authenticationOptionsSchema } from './webauthn.ts';

/** A registered security key. Its label is the nickname or the first 8 characters of credentialId. */
export const securityKeySchema = z.object({
  id: z.number().int(),
  credentialId: z.string(),
  nickname: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  transports: z.array(z.string()),
});
export type SecurityKeyCredential = z.infer<typeof securityKeySchema>;

/** One live session of the signed-in user (GET /auth/sessions). */
export const sessionInfoSchema = z.object({
  /** A public handle of the session, for DELETE /auth/sessions/{id}. */
  id: z.string(),
  /** This browser's own session. */
  current: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  userAgent: z.string().nullable(),
  ipAddress: z.string().nullable(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** What POST /totp/setup answers. Shown once. */
export const totpSetupSchema = z.object({
  secret: z.string(),
  otpAuthUrl: z.string(),
  /** An image data URL (PNG). */
  qrCode: z.string(),
  backupCodes: z.array(z.string()),
});
export type TotpSetupData = z.infer<typeof totpSetupSchema>;

/** GET /auth/me: the signed-in user. */
export const currentUserSchema = z.object({ user: userSchema });

/** POST /auth/login. */
export const loginBodySchema = z.object({
  username: z.string({ error: 'Username is required' }).max(100, 'Username is too long'),
  password: z.string({ error: 'Password is required' }).max(1024, 'Password is too long'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** A session begun: the user and their security keys (the session cookie is set beside). */
export const sessionGrantSchema = z.object({
  user: userSchema,
  credentials: z.array(securityKeySchema),
});
export type SessionGrant = z.infer<typeof sessionGrantSchema>;

// The three answers of POST /auth/login. Each says which it is by its flags: `requiresWebAuthn`
// and `requiresTotp` are true in their own shape and absent in the others, so the type is a
// union discriminated by them. (zod's discriminatedUnion needs the flag in every shape, and an
// absent one cannot be written in JSON Schema: the schema is a plain union of the three.)
const absent = z.literal(false).optional();

/** Signed in at once (no second factor is on). */
export const signedInSchema = sessionGrantSchema.extend({
  requiresWebAuthn: absent,
  requiresTotp: absent,
});

/** A security key is needed: its options for the browser, and the user's keys. */
export const requiresWebAuthnSchema = z.object({
  requiresWebAuthn: z.literal(true),
  requiresTotp: absent,
  options: authenticationOptionsSchema,
  credentials: z.array(securityKeySchema),
});

/** A code from the authenticator app (or a backup code) is needed: POST /auth/login/totp. */
export const requiresTotpSchema = z.object({
  requiresWebAuthn: absent,
  requiresTotp: z.literal(true),
  user: userSchema,
});

/**
 * What POST /auth/login answers: signed in, or a second step (no session yet: a pending login
 * tied to this browser by a cookie of its own).
 */
export const loginAnswerSchema = z.union([
  requiresWebAuthnSchema,
  requiresTotpSchema,
  signedInSchema,
]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

/** POST /auth/login/totp: the second step with the authenticator app. */
export const totpLoginBodySchema = z.object({
  token: z
    .string({ error: 'Enter the code from your authenticator app' })
    .max(64, 'The code is too long'),
  /** The token is a backup code, not a code of the app. */
  backup: z.boolean({ error: 'backup must be true or false' }).optional().default(false),
});
export type TotpLoginBody = z.input<typeof totpLoginBodySchema>;

/** POST /auth/reauthenticate: the password again, for changing the second factor. */
export const reauthenticateBodySchema = z.object({
  password: z
    .string({ error: 'Enter your current password' })
    .min(1, 'Enter your current password')
    .max(1024, 'Password is too long'),
});

export const reauthenticateAnswerSchema = z.object({
  /** Until when this session may change the second factor without the password. */
  reauthenticatedUntil: z.string(),
});

/** GET /auth/sessions: the user's live sessions, most recently used first. */
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });

import { z } from 'zod';

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

import { z } from 'zod';
import { securityKeySchema } from './auth.ts';
import { userSchema } from './users.ts';
import { credentialJsonShape, registrationResponseShape } from './webauthn.ts';

/**
 * The signed-in user's second factor: the authenticator app (/totp/*) and security keys
 * (/webauthn/*). Changing either needs the current password, sent as `password` or entered in
 * this session within the last minutes (POST /auth/reauthenticate); without either the answer is
 * a 403 asking for it.
 */

/** The current password, optional where a recent re-authentication of the session will do. */
export const currentPasswordSchema = z
  .string({ error: 'The password must be text' })
  .max(1024, 'Password is too long')
  .optional()
  // An empty field is no password: the answer then asks for one.
  .transform((v) => (v === '' ? undefined : v));

/** The body of a change that needs nothing but the password (the body may be left out). */
export const passwordBodySchema = z.object({ password: currentPasswordSchema });
export type PasswordBody = z.input<typeof passwordBodySchema>;

/** The changed user (the second-factor flags follow the change). */
export const userAnswerSchema = z.object({ user: userSchema });

// ---------------------------------------------------------------------------------------------
// Authenticator app

const CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';
const codeSchema = z
  .string({ error: CODE_MESSAGE })
  .trim()
  .regex(/^\d{6}$/, CODE_MESSAGE);

/** POST /totp/verify: the first code of the app, which turns it on. */
export const totpVerifyBodySchema = z.object({
  token: codeSchema,
  password: currentPasswordSchema,
});

/** POST /totp/disable: a current code and the password (always needed here). */
export const totpDisableBodySchema = z.object({
  token: codeSchema,
  password: z.string({ error: 'Password is required' }).max(1024, 'Password is too long'),
});

// ---------------------------------------------------------------------------------------------
// Security keys

export const NICKNAME_MAX_LENGTH = 64;

/** The key's name on the profile; blank is none. */
const nicknameSchema = z
  .string({ error: 'The nickname must be text' })
  .trim()
  .max(NICKNAME_MAX_LENGTH, `The nickname must be at most ${NICKNAME_MAX_LENGTH} characters long`)
  .nullish()
  .transform((v) => (v ? v : null));

/**
 * POST /webauthn/registration/verify: the browser's answer to navigator.credentials.create(),
 * with the key's nickname and the current password beside its fields. The nickname and the
 * password are checked first; any problem with the browser's answer is one plain message.
 */
export const registrationVerifyBodySchema = z.looseObject({
  nickname: nicknameSchema,
  password: currentPasswordSchema,
  ...credentialJsonShape,
  response: registrationResponseShape,
});
export type RegistrationVerifyBody = z.input<typeof registrationVerifyBodySchema>;

/** The user's security keys. */
export const credentialListSchema = z.object({ credentials: z.array(securityKeySchema) });

/** A key added or removed: the owner's keys as they now are, and the owner. */
export const credentialsChangeSchema = z.object({
  credentials: z.array(securityKeySchema),
  user: userSchema,
});
export type CredentialsChange = z.infer<typeof credentialsChangeSchema>;

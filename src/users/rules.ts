import { z } from 'zod';
import { COMMON_PASSWORD, isCommonPassword } from '../auth/common-passwords.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/passwords.ts';
import { ROLES } from '../../contract/enums.ts';

/** Field rules for users, shared by the API, the CLI and the first-admin bootstrap. */
export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .regex(
    /^[a-z0-9_]{3,30}$/,
    'Username must be 3 to 30 characters: lowercase letters, digits or underscores',
  );

export const fullNameSchema = z
  .string({ error: 'Full name is required' })
  .trim()
  .min(1, 'Full name is required')
  .max(100, 'Full name must be at most 100 characters long');

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters long')
  .pipe(z.email('Enter a valid email address'));

/** Refuses common passwords (checked only once the length is right: the length message wins). */
const notCommon = (password: string) =>
  password.length < PASSWORD_MIN_LENGTH ||
  password.length > PASSWORD_MAX_LENGTH ||
  !isCommonPassword(password);

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`)
  .refine(notCommon, COMMON_PASSWORD);

export const roleSchema = z.enum(ROLES, { error: 'Role must be USER or ADMIN' });

export const BIO_MAX_LENGTH = 280;

/** A text field that counts as "not sent" when blank (profile edits send only non-blank). */
export const unlessBlank = <S extends z.ZodType>(schema: S) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    schema.optional(),
  );

export const bioSchema = z
  .string({ error: 'Bio must be text' })
  .trim()
  .refine(
    (v) => [...v].length <= BIO_MAX_LENGTH,
    `Bio must be at most ${BIO_MAX_LENGTH} characters long`,
  );

export const newPasswordSchema = z
  .string({ error: 'New password must be at least 8 characters long' })
  .min(PASSWORD_MIN_LENGTH, `New password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(PASSWORD_MAX_LENGTH, `New password must be at most ${PASSWORD_MAX_LENGTH} characters long`)
  .refine(notCommon, COMMON_PASSWORD);

import { z } from 'zod';
import { imageFile } from './form-files.ts';
import { ROLES, VISIBILITIES } from './enums.ts';

/** A user, as the API returns it to the user themself and to admins. */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  /** '' when none. */
  bio: z.string(),
  /** 'media/avatars/<hex>.jpg', served at '/' + avatarPath; null when none. */
  avatarPath: z.string().nullable(),
  createdAt: z.string(),
  webauthnEnabled: z.boolean(),
  totpEnabled: z.boolean(),
  activityPubEnabled: z.boolean(),
  activityPubHandle: z.string().nullable(),
  activityPubActorUrl: z.string().nullable(),
  /** The visibility a new entry gets unless the form says otherwise. */
  defaultVisibility: z.enum(VISIBILITIES),
  /**
   * Whether follows of the user are requests they accept or decline (a FOLLOW_REQUEST
   * notification); the fediverse sees it as manuallyApprovesFollowers. Others see it too, so a
   * follow button can say that it asks.
   */
  approveFollowers: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/** What any signed-in user sees of another (GET /users/profiles/{username}). */
export const publicProfileSchema = userSchema.omit({
  email: true,
  webauthnEnabled: true,
  totpEnabled: true,
  defaultVisibility: true,
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** A user as lists of people show them: follows, followers, share recipients, search. */
export const userSummarySchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullName: z.string(),
  avatarPath: z.string().nullable(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/** GET /users (admins): every user of the vault, by username. */
export const userListSchema = z.object({ users: z.array(userSchema) });
export type UserList = z.infer<typeof userListSchema>;

/** One user: POST /users, PATCH /users/{id} and PATCH /users/me answer the user as it now is. */
export const userAnswerSchema = z.object({ user: userSchema });

/** GET /users/profiles/{username}. */
export const publicProfileAnswerSchema = z.object({ user: publicProfileSchema });

// ---------------------------------------------------------------------------------------------
// The field rules of a user: the shape of what is sent. The server adds what only it can check
// (a password in the list of common ones, a username already taken).

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const BIO_MAX_LENGTH = 280;

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

/** A password's length (a common password is refused by the server). */
export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`);

export const roleSchema = z.enum(ROLES, { error: 'Role must be USER or ADMIN' });

export const bioSchema = z
  .string({ error: 'Bio must be text' })
  .trim()
  .refine(
    (v) => [...v].length <= BIO_MAX_LENGTH,
    `Bio must be at most ${BIO_MAX_LENGTH} characters long`,
  );

/** A new password of one's own (PATCH /users/me); a common one is refused by the server. */
export const newPasswordSchema = z
  .string({ error: 'New password must be at least 8 characters long' })
  .min(PASSWORD_MIN_LENGTH, `New password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(PASSWORD_MAX_LENGTH, `New password must be at most ${PASSWORD_MAX_LENGTH} characters long`);

/** POST /users (admins): every field is required. */
export const createUserBodySchema = z.object({
  username: usernameSchema,
  fullName: fullNameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: roleSchema,
});
export type CreateUserBody = z.input<typeof createUserBodySchema>;

/**
 * PATCH /users/{id} (admins): the fields to change. A password is a reset (it ends the user's
 * sessions); a blank or null one is no change.
 */
export const updateUserBodySchema = z.object({
  fullName: fullNameSchema.optional(),
  email: emailSchema.optional(),
  role: roleSchema.optional(),
  password: z
    .string({ error: 'Password must be text' })
    .transform((v) => (v.trim() === '' ? undefined : v))
    .pipe(passwordSchema.optional())
    .nullish()
    .transform((v) => v ?? undefined),
});
export type UpdateUserBody = z.input<typeof updateUserBodySchema>;

/** A form field that counts as not sent when blank (a profile save sends only non-blank ones). */
const unlessBlank = <S extends z.ZodType<string | undefined, string>>(schema: S) =>
  z
    .string()
    .transform((v) => (v.trim() === '' ? undefined : v))
    .pipe(schema.optional());

const trueOrFalse = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true');

/**
 * PATCH /users/me, a multipart form (its fields and `avatar`, an image file): the fields sent
 * are changed, the others kept. A new password needs the current one.
 */
export const profileFormSchema = z.object({
  fullName: unlessBlank(fullNameSchema).optional(),
  email: unlessBlank(emailSchema).optional(),
  bio: bioSchema.optional(),
  activityPubEnabled: trueOrFalse('activityPubEnabled').optional(),
  approveFollowers: trueOrFalse('approveFollowers').optional(),
  removeAvatar: trueOrFalse('removeAvatar').optional(),
  defaultVisibility: z
    .enum(VISIBILITIES, { error: 'Visibility must be PRIVATE, FOLLOWERS or MEMBERS' })
    .optional(),
  currentPassword: z.string().max(1024, 'Current password is too long').optional(),
  newPassword: z.string().optional(),
  avatar: imageFile(),
});
export type ProfileForm = z.input<typeof profileFormSchema>;

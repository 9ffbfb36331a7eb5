import { z } from 'zod';
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

import { z } from 'zod';
import { followingItemSchema } from './social.ts';

/**
 * Follows of fediverse accounts (remote ActivityPub actors): the follow dialog's lookup, the
 * follow itself, and the list of the caller's follows. Local follows are in social.ts.
 */

/** POST /users/lookup: a handle (`@name@host`, `name@host`) or a fediverse profile URL. */
export const remoteLookupBodySchema = z
  .object({
    query: z
      .string({ error: 'Enter a handle or a profile address' })
      .trim()
      .min(1, 'Enter a handle or a profile address')
      .max(500, 'A handle or address is at most 500 characters long'),
  })
  .strict();

/** A fediverse account as the follow dialog shows it. `summary` is plain text, never HTML. */
export const lookedUpActorSchema = z.object({
  actorUri: z.string(),
  handle: z.string(),
  displayName: z.string(),
  summary: z.string(),
  avatarUrl: z.string().nullable(),
  /** The caller's follow of it: NONE, PENDING (asked, no Accept yet) or ACCEPTED. */
  followState: z.enum(['NONE', 'PENDING', 'ACCEPTED']),
  /**
   * Whether the account is on a vault (its server's NodeInfo names the software 'vault'); null
   * when that is not known. Only a vault's own posts show in the activity feed: another
   * server's account sends only its replies, cheers and mentions.
   */
  vault: z.boolean().nullable(),
});
export type LookedUpActor = z.infer<typeof lookedUpActorSchema>;

/** POST /users/lookup answers the account (a 404 when there is none). */
export const lookupAnswerSchema = z.object({ actor: lookedUpActorSchema });

/** POST /users/remote-follows: follow the account the lookup found (its actor URI). */
export const remoteFollowBodySchema = z
  .object({
    actorUri: z
      .string({ error: 'actorUri is required' })
      .max(2000, 'The address is too long')
      .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
        error: 'actorUri must be an http(s) URL',
      }),
  })
  .strict();

/** A fediverse account the caller follows or asked to follow (PENDING until it accepts). */
export const remoteFollowingItemSchema = z.object({
  followId: z.number().int(),
  /** For DELETE /users/remote-follows/{actorId}. */
  actorId: z.number().int(),
  actorUri: z.string(),
  handle: z.string().nullable(),
  displayName: z.string(),
  summary: z.string(),
  avatarUrl: z.string().nullable(),
  state: z.enum(['PENDING', 'ACCEPTED']),
  followedAt: z.string(),
  /**
   * Whether the account is on a vault (its server's NodeInfo names the software 'vault'); null
   * when that is not known. Only a vault's own posts show in the activity feed: another
   * server's account sends only its replies, cheers and mentions.
   */
  vault: z.boolean().nullable(),
});
export type RemoteFollowingItem = z.infer<typeof remoteFollowingItemSchema>;

/** POST /users/remote-follows answers the follow, PENDING until the account accepts. */
export const remoteFollowAnswerSchema = z.object({ follow: remoteFollowingItemSchema });

/** GET /users/following: local users, and fediverse accounts (`remote`). */
export const followingListSchema = z.object({
  following: z.array(followingItemSchema),
  remote: z.array(remoteFollowingItemSchema),
});
export type FollowingList = z.infer<typeof followingListSchema>;

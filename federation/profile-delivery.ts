import type { Federation } from '@fedify/fedify';
import { PUBLIC_COLLECTION, Update } from '@fedify/vocab';
import type { UserRepository } from '../src/users/repository.ts';
import { personFor } from './actors.ts';

/** One Update(Person) to hand to Fedify: whose, and the activity that asked for it. */
export interface ProfileDeliveryJob {
  username: string;
  /** The id of the UpdateProfile activity: the Update's id follows from it. */
  activityId: number;
}

/**
 * Hands a user's Update(Person) to Fedify (profile-handoff.ts says when): signed as the user
 * and queued for her followers collection, one POST per shared inbox where a server has one.
 * The object is her actor document as /users/{username} serves it now (actors.ts, personFor).
 * Addressed to the public, as Mastodon addresses its own (the actor document is public), with
 * her followers in cc. Nothing goes if she stopped federating since.
 */
export async function sendProfileUpdate(
  federation: Federation<void>,
  users: Pick<UserRepository, 'findFederatedByUsername'>,
  origin: string,
  job: ProfileDeliveryJob,
): Promise<void> {
  const user = await users.findFederatedByUsername(job.username);
  if (!user) return;
  const ctx = federation.createContext(new URL(origin), undefined);
  const person = personFor(ctx, user, await ctx.getActorKeyPairs(user.username), origin);
  const actorUri = ctx.getActorUri(user.username);
  const update = new Update({
    id: new URL(`${actorUri.href}#updates/${job.activityId}`),
    actor: actorUri,
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(user.username),
    object: person,
  });
  await ctx.sendActivity({ identifier: user.username }, 'followers', update, {
    preferSharedInbox: true,
    // A user's profile changes reach each server in the order they were made.
    orderingKey: actorUri.href,
  });
}

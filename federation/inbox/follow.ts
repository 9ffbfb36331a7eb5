import type { InboxContext } from '@fedify/fedify';
import type { Follow } from '@fedify/vocab';
import type { RemoteActorData } from '../../src/actors/repository.ts';
import type { FederationDeps } from '../deps.ts';
import { sendFollowActivity } from '../follow-delivery.ts';
import { INSTANCE_ACTOR } from '../paths.ts';
import { fetchRemoteActor, followLogger, guardedLoader } from './follow-common.ts';

/**
 * Follow of a local user by a remote actor (the signer: Fedify checked that the actor owns the
 * key). The object must be a local user with activityPubEnabled, else it is ignored. The actor
 * is fetched from its origin (signed as the followed user) and stored, the follow is ACCEPTED,
 * the user gets a FOLLOW_INVITE, and an Accept whose object is this Follow (its id, embedded)
 * is put into Fedify's queue once the follow is committed. A repeated Follow is accepted again
 * and changes nothing else. The Accept is sent from this listener, which Fedify's queue runs
 * and acknowledges only when it has finished: a crash before the Accept is queued runs it
 * again. A user who approves followers gets a FOLLOW_REQUEST instead: the follow waits
 * (PENDING, nothing sent) and its Accept or Reject goes through the outbox once they answer.
 * A Follow from an actor the user blocked is answered with a Reject and stored nowhere.
 */
export async function onFollow(
  ctx: InboxContext<void>,
  follow: Follow,
  deps: FederationDeps,
): Promise<void> {
  const follows = deps.remoteFollows;
  const actorUri = follow.actorId;
  const followId = follow.id;
  const objectId = follow.objectId;
  if (!follows || !actorUri || !followId || !objectId) return;
  const target = ctx.parseUri(objectId);
  if (target?.type !== 'actor' || target.identifier === INSTANCE_ACTOR) return;
  const user = await deps.users.findFederatedByUsername(target.identifier);
  if (!user) return;
  if (actorUri.origin === new URL(deps.config.origin).origin) return;
  const documentLoader = await guardedLoader(ctx, user.username, deps);
  const actor = await fetchRemoteActor(ctx, actorUri, documentLoader);
  if (!actor) return;
  const result = await follows.receiveFollow(user.username, actor, followId.href);
  if (!result.accepted) {
    if (result.rejected) await refuse(ctx, follow, user.username, actor);
    if (result.requested) {
      followLogger.info('{type} {follow} from {actor}: {user} approves followers, it waits', {
        type: 'Follow',
        follow: followId.href,
        actor: actorUri.href,
        user: user.username,
      });
    }
    return;
  }
  followLogger.info('{type} {follow} from {actor} for {recipient}: {user} accepts it', {
    type: 'Follow',
    follow: followId.href,
    actor: actorUri.href,
    recipient: ctx.recipient ?? 'the shared inbox',
    user: user.username,
  });
  await sendFollowActivity(ctx, {
    kind: 'Accept',
    username: user.username,
    followUri: followId.href,
    follower: actorUri.href,
    followed: ctx.getActorUri(user.username).href,
    recipient: actor,
  });
}

/** Rejects a Follow from an actor the user blocked (docs/social.md, "Blocks"). */
async function refuse(
  ctx: InboxContext<void>,
  follow: Follow,
  username: string,
  actor: RemoteActorData,
): Promise<void> {
  followLogger.info('{type} {follow} from {actor}: {user} blocked it; rejected', {
    type: 'Follow',
    follow: follow.id?.href ?? null,
    actor: actor.uri,
    user: username,
  });
  await sendFollowActivity(ctx, {
    kind: 'Reject',
    username,
    followUri: follow.id!.href,
    follower: actor.uri,
    followed: ctx.getActorUri(username).href,
    recipient: actor,
  });
}

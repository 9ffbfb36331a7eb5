import type { InboxContext } from '@fedify/fedify';
import { isActor, type Update } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { remoteActorData } from '../remote-actor.ts';
import { INSTANCE_ACTOR } from '../paths.ts';
import { embeddedOnly, fetchRemoteActor, followLogger, guardedLoader } from './follow-common.ts';

/**
 * Update of an actor by itself (the embedded actor's id is the signer's): a known remote
 * actor's stored name, summary, avatar and inboxes are replaced; an actor nobody here knows is
 * not stored. An Update naming the actor by id only re-fetches it from its origin. Returns
 * whether the Update was of an actor.
 */
export async function onUpdatePerson(
  ctx: InboxContext<void>,
  update: Update,
  deps: FederationDeps,
): Promise<boolean> {
  const actorUri = update.actorId;
  const objectId = update.objectId;
  if (!deps.remoteFollows || !actorUri || !objectId || objectId.href !== actorUri.href) {
    return false;
  }
  if (!(await deps.remoteFollows.knownActor(actorUri.href))) return true;
  let object: unknown;
  try {
    object = await update.getObject({ documentLoader: embeddedOnly });
  } catch {
    object = null;
  }
  const data =
    isActor(object) && object.id?.href === actorUri.href
      ? await remoteActorData(object, embeddedOnly)
      : await fetchRemoteActor(
          ctx,
          actorUri,
          await guardedLoader(ctx, ctx.recipient ?? INSTANCE_ACTOR, deps),
        );
  if (!data) return true;
  await deps.remoteFollows.receiveActorUpdate(data);
  followLogger.info('{actor} updated its profile', { actor: actorUri.href });
  return true;
}

import type { InboxContext } from '@fedify/fedify';
import type { Delete } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { followLogger } from './follow-common.ts';

/**
 * Delete of an actor by itself (object = actor = signer): the actor is forgotten everywhere
 * (its follows both ways, its remote entries and feed items, its notifications: the foreign
 * keys cascade; the photo copies of its entries are deleted first). Returns whether the Delete
 * was of an actor.
 */
export async function onDeleteActor(
  _ctx: InboxContext<void>,
  deletion: Delete,
  deps: FederationDeps,
): Promise<boolean> {
  const actorUri = deletion.actorId;
  const objectId = deletion.objectId;
  if (!deps.remoteFollows || !actorUri || !objectId || objectId.href !== actorUri.href) {
    return false;
  }
  const known = await deps.remoteFollows.actorGone(actorUri.href);
  followLogger.info('{actor} deleted itself{known}', {
    actor: actorUri.href,
    known: known ? '; forgotten' : ' (not known here)',
  });
  return true;
}

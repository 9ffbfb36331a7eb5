import type { InboxContext } from '@fedify/fedify';
import { Follow, type Undo } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { embeddedOnly, followLogger } from './follow-common.ts';

/**
 * Undo(Follow) from the follower: the follow goes (matched by the Follow's id, or when the
 * Follow is embedded without a known id, by its actor and object), and an unanswered
 * FOLLOW_INVITE with it. The embedded Follow's actor must be the Undo's actor (the signer).
 * An Undo of anything else (a Like, an Announce) changes nothing.
 */
export async function onUndo(
  ctx: InboxContext<void>,
  undo: Undo,
  deps: FederationDeps,
): Promise<void> {
  const follows = deps.remoteFollows;
  const actorUri = undo.actorId;
  const objectId = undo.objectId;
  if (!follows || !actorUri || !objectId) return;
  let object: unknown;
  try {
    object = await undo.getObject({ documentLoader: embeddedOnly });
  } catch {
    object = null; // only an id: matched by it below
  }
  let username: string | null = null;
  if (object instanceof Follow) {
    if (object.actorId?.href !== actorUri.href) return;
    const target = object.objectId ? ctx.parseUri(object.objectId) : null;
    username = target?.type === 'actor' ? target.identifier : null;
  } else if (object !== null) {
    return;
  }
  await follows.receiveUndoFollow(actorUri.href, objectId.href, username);
  followLogger.debug('Undo {id} from {actor}', { id: undo.id?.href ?? null, actor: actorUri.href });
}

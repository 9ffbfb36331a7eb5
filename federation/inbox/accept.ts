import type { InboxContext } from '@fedify/fedify';
import type { Accept } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { followLogger } from './follow-common.ts';

/**
 * Accept of a local user's Follow (its object the Follow, by id or embedded): from the
 * followed actor only (the signer), the follow becomes ACCEPTED. Anything else is ignored.
 */
export async function onAccept(
  _ctx: InboxContext<void>,
  accept: Accept,
  deps: FederationDeps,
): Promise<void> {
  const actorUri = accept.actorId;
  const followUri = accept.objectId;
  if (!deps.remoteFollows || !actorUri || !followUri) return;
  const accepted = await deps.remoteFollows.receiveAccept(actorUri.href, followUri.href);
  followLogger.info('Accept of {follow} from {actor}: {outcome}', {
    follow: followUri.href,
    actor: actorUri.href,
    outcome: accepted ? 'following' : 'no such pending follow',
  });
}

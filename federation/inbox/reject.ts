import type { InboxContext } from '@fedify/fedify';
import type { Reject } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { followLogger } from './follow-common.ts';

/**
 * Reject of a local user's Follow (refused, or the local user was removed as a follower):
 * from the followed actor only (the signer), the follow and its feed items go.
 */
export async function onReject(
  _ctx: InboxContext<void>,
  reject: Reject,
  deps: FederationDeps,
): Promise<void> {
  const actorUri = reject.actorId;
  const followUri = reject.objectId;
  if (!deps.remoteFollows || !actorUri || !followUri) return;
  const removed = await deps.remoteFollows.receiveReject(actorUri.href, followUri.href);
  followLogger.info('Reject of {follow} from {actor}: {outcome}', {
    follow: followUri.href,
    actor: actorUri.href,
    outcome: removed ? 'follow removed' : 'no such follow',
  });
}

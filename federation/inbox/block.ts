import type { InboxContext } from '@fedify/fedify';
import type { Block } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { followLogger } from './follow-common.ts';

/**
 * Block from a remote account naming a local user's actor: the follows between them end both
 * ways and the blocker's cheers and comments leave her entries (src/blocks/received.ts). A
 * Block naming anything else (another server's actor, an unknown user) changes nothing. Its
 * Undo needs no listener of its own: the block is kept by the blocker's server, so nothing
 * here is lifted (the Undo listener ignores an Undo of a Block).
 */
export function onBlock(ctx: InboxContext<void>, block: Block, deps: FederationDeps): void {
  const actorUri = block.actorId;
  const objectId = block.objectId;
  if (!deps.receivedBlocks || !actorUri || !objectId) return;
  const target = ctx.parseUri(objectId);
  if (target?.type !== 'actor') return;
  const applied = deps.receivedBlocks.receiveBlock(actorUri.href, target.identifier);
  followLogger.debug('Block {id} from {actor}: {outcome}', {
    id: block.id?.href ?? null,
    actor: actorUri.href,
    outcome: applied ? 'applied' : 'ignored',
  });
}

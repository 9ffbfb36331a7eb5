import type { InboxContext } from '@fedify/fedify';
import { Block, type Undo } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { INSTANCE_ACTOR } from '../paths.ts';
import { embeddedOnly, fetchRemoteActor, followLogger, guardedLoader } from './follow-common.ts';

/**
 * Block from a remote account naming a local user's actor: recorded, and while it stands
 * nothing of hers goes to the blocker and nothing of theirs is taken; the follows between them
 * end both ways and the blocker's cheers and comments leave her entries
 * (src/blocks/received.ts). A blocker not stored here is fetched first (signed as the user),
 * so that the block is kept. A Block naming anything else (another server's actor, an unknown
 * user, the instance actor) changes nothing.
 */
export async function onBlock(
  ctx: InboxContext<void>,
  block: Block,
  deps: FederationDeps,
): Promise<void> {
  const received = deps.receivedBlocks;
  const actorUri = block.actorId;
  const objectId = block.objectId;
  if (!received || !actorUri || !objectId || !block.id) return;
  const target = ctx.parseUri(objectId);
  if (target?.type !== 'actor' || target.identifier === INSTANCE_ACTOR) return;
  const user = await deps.users.findFederatedByUsername(target.identifier);
  if (!user || actorUri.origin === new URL(deps.config.origin).origin) return;
  let actor;
  if (!(await received.knowsActor(actorUri.href))) {
    const loader = await guardedLoader(ctx, user.username, deps);
    actor = (await fetchRemoteActor(ctx, actorUri, loader)) ?? undefined;
  }
  const outcome = await received.receiveBlock({
    actorUri: actorUri.href,
    username: user.username,
    activityUri: block.id.href,
    actor,
  });
  followLogger.info('Block {id} of {user} from {actor}: {outcome}', {
    id: block.id.href,
    user: user.username,
    actor: actorUri.href,
    outcome,
  });
}

/**
 * Undo(Block): the block goes, matched by the Block's id (embedded or given alone) or by its
 * actor and object. The embedded Block's actor must be the Undo's (the signer). Returns whether
 * the Undo was of a Block (or named a stored one), so that other Undos go on to their handlers.
 */
export async function onUndoBlock(
  ctx: InboxContext<void>,
  undo: Undo,
  deps: FederationDeps,
): Promise<boolean> {
  const received = deps.receivedBlocks;
  const actorUri = undo.actorId;
  const objectId = undo.objectId;
  if (!received || !actorUri || !objectId) return false;
  let object: unknown;
  try {
    object = await undo.getObject({ documentLoader: embeddedOnly });
  } catch {
    object = null; // only an id: matched by it below
  }
  if (object !== null && !(object instanceof Block)) return false;
  let username: string | null = null;
  if (object instanceof Block) {
    if (object.actorId?.href !== actorUri.href) return true;
    const target = object.objectId ? ctx.parseUri(object.objectId) : null;
    username = target?.type === 'actor' ? target.identifier : null;
  }
  const outcome = await received.receiveUndoBlock(actorUri.href, objectId.href, username);
  if (object === null && outcome !== 'stored') return false;
  followLogger.info('Undo {id} of the Block {block} from {actor}: {outcome}', {
    id: undo.id?.href ?? null,
    block: objectId.href,
    actor: actorUri.href,
    outcome,
  });
  return true;
}

import type { Federation, InboxListenerSetters } from '@fedify/fedify';
import {
  Accept,
  Activity,
  Announce,
  Block,
  Create,
  Delete,
  Follow,
  Like,
  Reject,
  Undo,
  Update,
} from '@fedify/vocab';
import { getLogger } from '@logtape/logtape';
import { FEDERATION_PATHS } from './paths.ts';
import type { FederationDeps } from './deps.ts';
import { onCreateNote } from './inbox/create-note.ts';
import { onDeleteNote } from './inbox/delete-note.ts';
import { onUpdateNote } from './inbox/update-note.ts';
import { onAccept } from './inbox/accept.ts';
import { onDeleteActor } from './inbox/delete-actor.ts';
import { onFollow } from './inbox/follow.ts';
import { onReject } from './inbox/reject.ts';
import { onUndo } from './inbox/undo.ts';
import { onBlock, onUndoBlock } from './inbox/block.ts';
import { onUpdatePerson } from './inbox/update-person.ts';
import { onLike } from './inbox/like.ts';
import { onUndoLike } from './inbox/undo-like.ts';
import { onCreateReply } from './inbox/reply.ts';
import { onCreateMention } from './inbox/create-mention.ts';
import { onDeleteReply, onUpdateReply } from './inbox/reply-changes.ts';

const logger = getLogger(['vault', 'federation', 'inbox']);

/**
 * The personal inboxes (/users/{username}/inbox) and the shared inbox (/inbox). Fedify verifies
 * every POST's HTTP signature (or object integrity proof) and refuses unverifiable ones with 401
 * before any listener runs; verified activities go through the queue to the listeners.
 *
 * The listeners (federation/inbox/, one file per activity): Create, Update and Delete of Notes
 * (entries of followed remote vaults), Update and Delete of actors, Follow, Undo, Accept and
 * Reject, Block, and the conversation on local entries: Like, Undo(Like), replies (Create of a Note
 * `inReplyTo` a local entry's or comment's Note), their Update and Delete, and posts that
 * mention a local user. Fedify calls the most specific listener for an activity's class, so the catch-all on
 * Activity only logs what none of them handles (a Like, an Announce…).
 */
export function registerInbox(
  federation: Federation<void>,
  deps: FederationDeps,
): InboxListenerSetters<void> {
  return (
    federation
      .setInboxListeners(FEDERATION_PATHS.inbox, FEDERATION_PATHS.sharedInbox)
      // Entries of followed remote vaults (federation/inbox/). Fedify allows one listener per
      // type: an Update or Delete that is not about a remote entry (the handlers say false) is
      // for the next handler in the same listener (a remote actor's profile, its deletion).
      // Replies to local entries and comments first (federation/inbox/reply*.ts), then posts
      // that mention a local user (create-mention.ts), then entries.
      .on(Create, async (ctx, activity) => {
        if (await onCreateReply(ctx, activity, deps)) return;
        if (await onCreateMention(ctx, activity, deps)) return;
        await onCreateNote(ctx, activity, deps);
      })
      .on(Update, async (ctx, activity) => {
        if (await onUpdateReply(ctx, activity, deps)) return;
        if (await onUpdateNote(ctx, activity, deps)) return;
        if (await onUpdatePerson(ctx, activity, deps)) return;
      })
      .on(Delete, async (ctx, activity) => {
        if (await onDeleteReply(ctx, activity, deps)) return;
        if (await onDeleteNote(ctx, activity, deps)) return;
        if (await onDeleteActor(ctx, activity, deps)) return;
      })
      // Follows with remote actors (federation/inbox/follow.ts, undo.ts, accept.ts, reject.ts).
      .on(Follow, (ctx, activity) => onFollow(ctx, activity, deps))
      .on(Undo, async (ctx, activity) => {
        if (await onUndoLike(ctx, activity, deps)) return;
        if (await onUndoBlock(ctx, activity, deps)) return;
        await onUndo(ctx, activity, deps);
      })
      // Blocks from remote accounts (federation/inbox/block.ts).
      .on(Block, (ctx, activity) => onBlock(ctx, activity, deps))
      // Cheers of local entries and comments (federation/inbox/like.ts).
      .on(Like, (ctx, activity) => onLike(ctx, activity, deps))
      // Entries are followers-only: they cannot be boosted, so an Announce changes nothing.
      .on(Announce, (_ctx, activity) => {
        logger.debug('Ignored Announce {id} from {actor}: followers-only entries are not boosted', {
          id: activity.id?.href ?? null,
          actor: activity.actorId?.href ?? null,
        });
      })
      .on(Accept, (ctx, activity) => onAccept(ctx, activity, deps))
      .on(Reject, (ctx, activity) => onReject(ctx, activity, deps))
      .on(Activity, (ctx, activity) => {
        logger.info('Received {type} {id} from {actor} for {recipient}; not handled', {
          type: activity.constructor.name,
          id: activity.id?.href ?? null,
          actor: activity.actorId?.href ?? null,
          recipient: ctx.recipient ?? 'the shared inbox',
        });
      })
      .onError((_ctx, error) => {
        logger.error('An inbox listener failed: {error}', { error });
      })
  );
}

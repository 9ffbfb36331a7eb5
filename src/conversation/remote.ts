import { COMMENT_MAX_LENGTH } from '../../contract/conversation.ts';
import type { ActorRepository } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { ConversationRepository } from './repository.ts';

/** A local entry a remote Note id names: the entry and the generation of its Note id. */
export interface NotedEntry {
  username: string;
  entryId: number;
  generation: number;
}

/** What became of a received cheer or comment (for the inbox's log). */
export type RemoteOutcome = 'stored' | 'unchanged' | 'refused';

/**
 * Cheers and comments that remote accounts send (federation/inbox/like.ts, reply.ts …): the
 * inbox translates the activity, this decides. Only an entry that went to the fediverse (not
 * PRIVATE, not kept out, its owner federating; the current generation of its Note id) and only
 * an actor who may see it, that is an accepted remote follower of its owner (the entry's
 * audience), get anything stored; everything else is refused and changes nothing. Each write
 * records its activity in the outbox with the remote actor as its actor, so the owner's CHEER
 * and COMMENT notifications come from the same handlers as local ones
 * (src/conversation/notifications.ts). Federation sends nothing for them (their actor is not
 * local).
 */
export function createRemoteConversation(deps: {
  repo: ConversationRepository;
  /** A federated entry of a federating user, by its Note id's parts, with its owner. */
  federatedEntry(entry: NotedEntry): { id: number; userId: number } | undefined;
  /** Whether the actor is an accepted remote follower of the user. */
  isFollower(userId: number, actorUri: string): boolean;
  actors: Pick<ActorRepository, 'findRemoteByUri'>;
  /**
   * Blocks (src/blocks/). A block ends the follow, so a blocked actor is no follower any more;
   * asked as well so that nothing of theirs is taken even while a follow is being ended.
   */
  blocks: { isBlockedEitherWay(userId: number, actorId: number): boolean };
  outbox: Outbox;
  transaction: Transaction;
  now?: () => number;
}) {
  const { repo, actors, outbox, transaction } = deps;
  const now = deps.now ?? Date.now;

  /** The entry and the actor's id when the actor may see the entry; else undefined. */
  function audienceOf(actorUri: string, noted: NotedEntry) {
    const entry = deps.federatedEntry(noted);
    if (!entry || !deps.isFollower(entry.userId, actorUri)) return undefined;
    const actor = actors.findRemoteByUri(actorUri);
    if (!actor || deps.blocks.isBlockedEitherWay(entry.userId, actor.id)) return undefined;
    return { entryId: entry.id, actorId: actor.id };
  }

  function record(
    type: 'Like' | 'UndoLike' | 'Comment',
    actorId: number,
    beverageId: number,
    payload: { cheerId: number } | { commentId: number },
  ): void {
    outbox.record({ actorId, type, beverageId, payload, createdAt: now() });
  }

  /** Plain text as a comment holds it; undefined when nothing is left. */
  function commentText(text: string): string | undefined {
    const content = text.trim().slice(0, COMMENT_MAX_LENGTH).trim();
    return content === '' ? undefined : content;
  }

  return {
    /** A Like of the entry's Note: a cheer by the actor (once; a replay changes nothing). */
    receiveCheer(actorUri: string, noted: NotedEntry, likeUri: string): RemoteOutcome {
      const seen = audienceOf(actorUri, noted);
      if (!seen) return 'refused';
      return transaction(() => {
        const cheerId = repo.addRemoteCheer(seen.entryId, seen.actorId, likeUri, now());
        if (cheerId === undefined) return 'unchanged';
        record('Like', seen.actorId, seen.entryId, { cheerId });
        return 'stored';
      });
    },

    /**
     * Undo of a Like: the actor's cheer made by that Like goes, or, when the Like's id is not
     * the stored one (a server that makes up ids), the actor's cheer of the entry it names.
     */
    receiveUndoCheer(actorUri: string, likeUri: string, noted?: NotedEntry): RemoteOutcome {
      const actor = actors.findRemoteByUri(actorUri);
      if (!actor) return 'refused';
      return transaction(() => {
        let removed = repo.removeCheerByUri(likeUri, actor.id);
        if (!removed && noted) {
          const entry = deps.federatedEntry(noted);
          const id = entry && repo.removeCheer({ kind: 'local', id: entry.id }, actor.id);
          if (entry && id !== undefined) removed = { id, beverageId: entry.id };
        }
        if (!removed) return 'unchanged';
        record('UndoLike', actor.id, removed.beverageId, { cheerId: removed.id });
        return 'stored';
      });
    },

    /** A reply to the entry's Note: a comment (its text already reduced from HTML). */
    receiveComment(
      actorUri: string,
      noted: NotedEntry,
      noteUri: string,
      text: string,
      publishedAt: Date | undefined,
    ): RemoteOutcome {
      const seen = audienceOf(actorUri, noted);
      const content = commentText(text);
      if (!seen || content === undefined) return 'refused';
      const at = Math.min(publishedAt?.getTime() ?? now(), now());
      return transaction(() => {
        const id = repo.addRemoteComment(seen.entryId, seen.actorId, content, noteUri, at);
        if (id === undefined) return 'unchanged';
        record('Comment', seen.actorId, seen.entryId, { commentId: id });
        return 'stored';
      });
    },

    /** Whether a Note id is a stored reply (so an Update or Delete of it is for these). */
    isStoredReply(noteUri: string): boolean {
      return repo.commentByUri(noteUri) !== undefined;
    },

    /** An edited reply: its author's Update replaces the text, when newer than what is stored. */
    receiveCommentUpdate(
      actorUri: string,
      noteUri: string,
      text: string,
      updatedAt: Date | undefined,
    ): RemoteOutcome {
      const actor = actors.findRemoteByUri(actorUri);
      const comment = repo.commentByUri(noteUri);
      const content = commentText(text);
      if (!actor || !comment || comment.actorId !== actor.id || content === undefined) {
        return 'refused';
      }
      const at = updatedAt?.getTime() ?? now();
      if (at <= comment.updatedAt) return 'unchanged';
      repo.updateComment(comment.id, content, Math.min(at, now()));
      return 'stored';
    },

    /** A deleted reply: its author's Delete removes it (and its notification). */
    receiveCommentDelete(actorUri: string, noteUri: string): RemoteOutcome {
      const actor = actors.findRemoteByUri(actorUri);
      const comment = repo.commentByUri(noteUri);
      if (!actor || !comment || comment.actorId !== actor.id) return 'refused';
      repo.deleteComment(comment.id);
      return 'stored';
    },
  };
}

export type RemoteConversation = ReturnType<typeof createRemoteConversation>;

import { COMMENT_MAX_LENGTH, type ConversationCounts } from '../../contract/conversation.ts';
import type { ActorRepository } from '../actors/repository.ts';
import type { Role } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, forbidden, notFound } from '../domain-error.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { VisibilityPolicy, VisibleThing } from '../visibility/policy.ts';
import type { CommentRecord, ConversationRepository, EntryRef } from './repository.ts';

export type { EntryRef } from './repository.ts';

export interface ConversationViewer {
  id: number;
  role: Role;
}

/** A comment as the viewer has it: whether they may delete it. */
export type CommentView = CommentRecord & { canDelete: boolean };

/** The conversation's answers when the entry is not one the caller may see (as GET of it). */
const NOT_FOUND = { local: 'Beverage not found', remote: 'Entry not found' } as const;

/** An entry under discussion: its owner, when a local user owns it. */
interface Discussed {
  ref: EntryRef;
  /** The local owner's user id; null for a remote vault's entry. */
  ownerId: number | null;
}

/**
 * Cheers and comments under an entry (docs/social.md, "Cheers and comments"). Whoever may see
 * the entry may cheer it once, take the cheer back and comment; a local entry is seen as the
 * visibility policy says (src/visibility/policy.ts), a remote vault's entry by the local users
 * whose feed holds it (those who follow its actor). The entry's owner may delete any comment on
 * it, an author their own. Every write records its activity in the outbox in the same
 * transaction (Like, UndoLike, Comment, DeleteComment): the owner's notification is made from
 * it (src/conversation/notifications.ts), and federation may send it on.
 */
export function createConversationService(deps: {
  repo: ConversationRepository;
  /** Local entries by id (the entries' repository). */
  entries: { findById(id: number): VisibleThing | undefined };
  visibility: VisibilityPolicy;
  /** Whether a remote entry is in the user's feed (the feed's repository). */
  remoteEntries: { holdsRemoteEntry(recipientId: number, remoteEntryId: number): boolean };
  actors: ActorRepository;
  outbox: Outbox;
  transaction: Transaction;
  now?: () => number;
}) {
  const { repo, entries, visibility, remoteEntries, actors, outbox, transaction } = deps;
  const now = deps.now ?? Date.now;

  /** The entry if the viewer may see it; else a 404 that does not tell whether it exists. */
  function discussed(viewer: ConversationViewer, ref: EntryRef): Discussed {
    if (ref.kind === 'remote') {
      if (!remoteEntries.holdsRemoteEntry(viewer.id, ref.id)) throw notFound(NOT_FOUND.remote);
      return { ref, ownerId: null };
    }
    const entry = entries.findById(ref.id);
    if (!entry || !visibility.canSee(viewer, entry)) throw notFound(NOT_FOUND.local);
    return { ref, ownerId: entry.userId };
  }

  function record(
    type: 'Like' | 'UndoLike' | 'Comment' | 'DeleteComment',
    actorId: number,
    ref: EntryRef,
    payload: { cheerId: number } | { commentId: number; authorId?: number },
  ): void {
    outbox.record({
      actorId,
      type,
      ...(ref.kind === 'local' ? { beverageId: ref.id } : { remoteEntryId: ref.id }),
      payload,
      createdAt: now(),
    });
  }

  function viewOf(viewer: ConversationViewer, entry: Discussed, comment: CommentRecord) {
    const canDelete = comment.author.userId === viewer.id || entry.ownerId === viewer.id;
    return { ...comment, canDelete } satisfies CommentView;
  }

  return {
    /** The counts of one entry as the viewer sees them (no check: for answers about it). */
    counts(viewer: ConversationViewer, ref: EntryRef): ConversationCounts {
      return repo.counts(ref, viewer.id);
    },

    /** The counts of entries the viewer is being shown, by id: one statement for a page. */
    countsOf(
      viewer: ConversationViewer,
      kind: EntryRef['kind'],
      ids: readonly number[],
    ): Map<number, ConversationCounts> {
      return repo.countsOf(kind, ids, viewer.id);
    },

    /** Cheers the entry; cheering it again changes nothing. The counts as they now are. */
    cheer(viewer: ConversationViewer, ref: EntryRef): ConversationCounts {
      discussed(viewer, ref);
      return transaction(() => {
        const actorId = actors.localActorId(viewer.id);
        const cheerId = repo.addCheer(ref, actorId, now());
        if (cheerId !== undefined) record('Like', actorId, ref, { cheerId });
        return repo.counts(ref, viewer.id);
      });
    },

    /**
     * Takes the viewer's cheer back (its notification goes with it); without one, nothing
     * changes. The counts as they now are.
     */
    uncheer(viewer: ConversationViewer, ref: EntryRef): ConversationCounts {
      discussed(viewer, ref);
      return transaction(() => {
        const actorId = actors.existingLocalActorId(viewer.id);
        const cheerId = actorId === undefined ? undefined : repo.removeCheer(ref, actorId);
        if (cheerId !== undefined) record('UndoLike', actorId!, ref, { cheerId });
        return repo.counts(ref, viewer.id);
      });
    },

    /**
     * The entry's comments, oldest first, but those of people the viewer blocked or who blocked
     * the viewer: a block hides each side's comments from the other (as it does their cheers
     * and comments from the counts).
     */
    comments(viewer: ConversationViewer, ref: EntryRef): CommentView[] {
      const entry = discussed(viewer, ref);
      return repo.comments(ref, viewer.id).map((comment) => viewOf(viewer, entry, comment));
    },

    /** Adds a comment: plain text, trimmed, 1 to COMMENT_MAX_LENGTH characters. */
    comment(viewer: ConversationViewer, ref: EntryRef, text: string): CommentView {
      const entry = discussed(viewer, ref);
      const content = text.trim();
      if (content === '') throw badRequest('Comment is required');
      if (content.length > COMMENT_MAX_LENGTH) {
        throw badRequest(`Comment must be at most ${COMMENT_MAX_LENGTH} characters`);
      }
      const comment = transaction(() => {
        const actorId = actors.localActorId(viewer.id);
        const added = repo.addComment(ref, actorId, content, now());
        record('Comment', actorId, ref, { commentId: added.id });
        return added;
      });
      return viewOf(viewer, entry, comment);
    },

    /** Deletes a comment: its author or the entry's owner may (its notification goes too). */
    deleteComment(viewer: ConversationViewer, ref: EntryRef, commentId: number): void {
      const entry = discussed(viewer, ref);
      transaction(() => {
        const comment = repo.findComment(ref, commentId);
        if (!comment) throw notFound('Comment not found');
        if (!viewOf(viewer, entry, comment).canDelete) {
          throw forbidden("Only the comment's author or the entry's owner can delete it");
        }
        repo.deleteComment(commentId);
        // The one who deleted it acts; the payload names the author (whose Note it was).
        const actorId = actors.localActorId(viewer.id);
        record('DeleteComment', actorId, ref, { commentId, authorId: comment.actorId });
      });
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;

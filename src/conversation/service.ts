import {
  COMMENT_MAX_LENGTH,
  type CommentMention,
  type ConversationCounts,
} from '../../contract/conversation.ts';
import type { ActorRepository } from '../actors/repository.ts';
import type { Role } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, forbidden, notFound } from '../domain-error.ts';
import type { NewActivity, PayloadInput } from '../outbox/activities.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { VisibilityPolicy, VisibleThing } from '../visibility/policy.ts';
import { addressComment, mentionedActors, presentMentions } from './addressing.ts';
import type { CommentRecord, ConversationRepository, EntryRef } from './repository.ts';
import { NO_COMMENT_CHEERS, type CommentCheers } from './thread-repository.ts';

export type { EntryRef } from './repository.ts';

export interface ConversationViewer {
  id: number;
  role: Role;
}

/** A comment as the viewer has it: whether they may delete it, its mentions and cheers. */
export type CommentView = CommentRecord &
  CommentCheers & { canDelete: boolean; mentions: CommentMention[] };

/** What a new comment says, and whom it answers (contract/conversation.ts commentBodySchema). */
export interface NewComment {
  content: string;
  inReplyTo?: number;
  private?: boolean;
}

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
 * whose feed holds it (those who follow its actor). Among them a comment is read as its
 * audience and addressees say (docs/social.md, "Who reads a reply"), and may be answered and
 * cheered by whoever reads it ("Threads"). The entry's owner may delete any comment on it that
 * they read, an author their own. Every write records its activity in the outbox in the same
 * transaction (Like, UndoLike, Comment, DeleteComment, LikeComment, UndoLikeComment): the
 * notifications are made from it (src/conversation/notifications.ts), and federation may send
 * it on.
 */
export function createConversationService(deps: {
  repo: ConversationRepository;
  /** Local entries by id (the entries' repository). */
  entries: { findById(id: number): Promise<VisibleThing | undefined> };
  visibility: VisibilityPolicy;
  /** Whether a remote entry is in the user's feed (the feed's repository). */
  remoteEntries: {
    holdsRemoteEntry(recipientId: number, remoteEntryId: number): Promise<boolean>;
  };
  actors: ActorRepository;
  outbox: Outbox;
  transaction: Transaction;
  /** This vault's host: `@name@{host}` in a comment names a local user. */
  localHost?: string;
  now?: () => number;
}) {
  const { repo, entries, visibility, remoteEntries, actors, outbox, transaction } = deps;
  const now = deps.now ?? Date.now;
  const localHost = deps.localHost ?? '';

  /** The entry if the viewer may see it. */
  async function seen(viewer: ConversationViewer, ref: EntryRef): Promise<Discussed | undefined> {
    if (ref.kind === 'remote') {
      const held = await remoteEntries.holdsRemoteEntry(viewer.id, ref.id);
      return held ? { ref, ownerId: null } : undefined;
    }
    const entry = await entries.findById(ref.id);
    if (!entry || !(await visibility.canSee(viewer, entry))) return undefined;
    return { ref, ownerId: entry.userId };
  }

  /** The entry if the viewer may see it; else a 404 that does not tell whether it exists. */
  async function discussed(viewer: ConversationViewer, ref: EntryRef): Promise<Discussed> {
    const entry = await seen(viewer, ref);
    if (!entry) throw notFound(NOT_FOUND[ref.kind]);
    return entry;
  }

  /** Records a cheer's or comment's activity (in the write's transaction). */
  function record<
    T extends 'Like' | 'UndoLike' | 'Comment' | 'DeleteComment' | 'LikeComment' | 'UndoLikeComment',
  >(type: T, actorId: number, ref: EntryRef, payload: PayloadInput<T>): Promise<number> {
    return outbox.record({
      actorId,
      type,
      ...(ref.kind === 'local' ? { beverageId: ref.id } : { remoteEntryId: ref.id }),
      payload,
      createdAt: now(),
    } as NewActivity);
  }

  function canDelete(viewer: ConversationViewer, entry: Discussed, comment: CommentRecord) {
    if (comment.deleted) return false;
    return comment.author.userId === viewer.id || entry.ownerId === viewer.id;
  }

  /** The entry's comments as the viewer has them: one statement each for mentions and cheers. */
  async function viewsOf(
    viewer: ConversationViewer,
    entry: Discussed,
    comments: CommentRecord[],
  ): Promise<CommentView[]> {
    const mentions = await repo.mentionsOf(entry.ref);
    const cheers = await repo.commentCheersOf(entry.ref, viewer.id);
    return comments.map((comment): CommentView => ({
      ...comment,
      canDelete: canDelete(viewer, entry, comment),
      mentions: comment.deleted
        ? []
        : presentMentions(comment.content, mentions.get(comment.id) ?? [], localHost),
      ...(comment.deleted ? NO_COMMENT_CHEERS : (cheers.get(comment.id) ?? NO_COMMENT_CHEERS)),
    }));
  }

  /** A comment under the entry the viewer reads and that is not deleted; else a 404. */
  async function liveComment(
    viewer: ConversationViewer,
    ref: EntryRef,
    id: number,
  ): Promise<CommentRecord> {
    const comment = await repo.readableComment(ref, id, viewer.id);
    if (!comment || comment.deleted) throw notFound('Comment not found');
    return comment;
  }

  return {
    /** Whether the viewer may see the entry, and so its conversation (for notifications). */
    async maySee(viewer: ConversationViewer, ref: EntryRef): Promise<boolean> {
      return (await seen(viewer, ref)) !== undefined;
    },

    /**
     * The counts of entries the viewer is being shown, by id (no check: for answers about them):
     * one statement for a page. Read for every answer with entries by src/beverages/entry-view.ts.
     */
    countsOf(
      viewer: ConversationViewer,
      kind: EntryRef['kind'],
      ids: readonly number[],
    ): Promise<Map<number, ConversationCounts>> {
      return repo.countsOf(kind, ids, viewer.id);
    },

    /** Cheers the entry; cheering it again changes nothing. The counts as they now are. */
    cheer(viewer: ConversationViewer, ref: EntryRef): Promise<ConversationCounts> {
      // The check and the write in one transaction: the entry cannot go or be hidden between.
      return transaction(async () => {
        await discussed(viewer, ref);
        const actorId = await actors.localActorId(viewer.id);
        const cheerId = await repo.addCheer(ref, actorId, now());
        if (cheerId !== undefined) await record('Like', actorId, ref, { cheerId });
        return repo.counts(ref, viewer.id);
      });
    },

    /**
     * Takes the viewer's cheer back (its notification goes with it); without one, nothing
     * changes. The counts as they now are.
     */
    uncheer(viewer: ConversationViewer, ref: EntryRef): Promise<ConversationCounts> {
      return transaction(async () => {
        await discussed(viewer, ref);
        const actorId = await actors.existingLocalActorId(viewer.id);
        const cheerId = actorId === undefined ? undefined : await repo.removeCheer(ref, actorId);
        if (cheerId !== undefined) await record('UndoLike', actorId!, ref, { cheerId });
        return repo.counts(ref, viewer.id);
      });
    },

    /**
     * The entry's comments the viewer reads (docs/social.md, "Who reads a reply": never those
     * of people the viewer blocked or who blocked the viewer, nor a reply not addressed to
     * them), in thread order: each answer after its parent.
     */
    async comments(viewer: ConversationViewer, ref: EntryRef): Promise<CommentView[]> {
      const entry = await discussed(viewer, ref);
      return viewsOf(viewer, entry, await repo.comments(ref, viewer.id));
    },

    /**
     * Adds a comment: plain text, trimmed, 1 to COMMENT_MAX_LENGTH characters; with `inReplyTo`
     * an answer to a comment under the same entry that the viewer reads (else 404), `private`
     * addressed to that comment's author alone (addressComment). Its mentions are addressed.
     * A string is a comment on the entry.
     */
    async comment(
      viewer: ConversationViewer,
      ref: EntryRef,
      body: string | NewComment,
    ): Promise<CommentView> {
      // The checks and the writes in one transaction: the entry, and the comment answered,
      // cannot go or be hidden between.
      const { entry, comment } = await transaction(async () => {
        const entry = await discussed(viewer, ref);
        const input = typeof body === 'string' ? { content: body } : body;
        const content = input.content.trim();
        if (content === '') throw badRequest('Comment is required');
        if (content.length > COMMENT_MAX_LENGTH) {
          throw badRequest(`Comment must be at most ${COMMENT_MAX_LENGTH} characters`);
        }
        if (input.private && input.inReplyTo === undefined) {
          throw badRequest('A private reply answers a comment');
        }
        const parent =
          input.inReplyTo === undefined
            ? undefined
            : await liveComment(viewer, ref, input.inReplyTo);
        const actorId = await actors.localActorId(viewer.id);
        const { audience, addressees } = addressComment({
          authorActorId: actorId,
          parent: parent && { comment: parent, addressees: await repo.addresseesOf(parent.id) },
          isPrivate: input.private === true,
          mentionedActorIds: await mentionedActors(content, {
            localHost,
            userIdByUsername: repo.userIdByUsername,
            localActorId: actors.localActorId,
            remoteActorByHandle: repo.remoteActorByHandle,
          }),
        });
        const added = await repo.addComment(ref, actorId, content, now(), {
          parentId: parent?.id ?? null,
          audience,
        });
        for (const [addressee, mentioned] of addressees) {
          await repo.addAddressee(added.id, addressee, mentioned);
        }
        await record('Comment', actorId, ref, { commentId: added.id });
        return { entry, comment: added };
      });
      return (await viewsOf(viewer, entry, [comment]))[0]!;
    },

    /**
     * Deletes a comment the viewer reads: its author or the entry's owner may. One with answers
     * stays as a deleted comment under which they hang; one without is removed, with each
     * deleted comment above it left without answers. Its notifications go too.
     */
    async deleteComment(
      viewer: ConversationViewer,
      ref: EntryRef,
      commentId: number,
    ): Promise<void> {
      await transaction(async () => {
        const entry = await discussed(viewer, ref);
        const comment = await liveComment(viewer, ref, commentId);
        if (!canDelete(viewer, entry, comment)) {
          throw forbidden("Only the comment's author or the entry's owner can delete it");
        }
        // Whom its Note was addressed to, for its Delete once the row is gone (federation).
        const addresseeIds = (await repo.addresseesOf(commentId)).map((a) => a.actorId);
        await repo.deleteOrTombstone(commentId, now());
        // The one who deleted it acts; the payload names the author (whose Note it was).
        const actorId = await actors.localActorId(viewer.id);
        const { audience } = comment;
        await record('DeleteComment', actorId, ref, {
          commentId,
          authorId: comment.actorId,
          audience,
          addresseeIds,
        });
      });
    },

    /** Cheers a comment the viewer reads (again: no change); its cheers as they now are. */
    cheerComment(
      viewer: ConversationViewer,
      ref: EntryRef,
      commentId: number,
    ): Promise<CommentCheers> {
      return transaction(async () => {
        await discussed(viewer, ref);
        await liveComment(viewer, ref, commentId);
        const actorId = await actors.localActorId(viewer.id);
        const commentCheerId = await repo.addCommentCheer(commentId, actorId, now());
        if (commentCheerId !== undefined) {
          await record('LikeComment', actorId, ref, { commentCheerId, commentId });
        }
        return repo.commentCheers(commentId, viewer.id);
      });
    },

    /** Takes the viewer's cheer of a comment back (none: no change); its cheers as they are. */
    uncheerComment(
      viewer: ConversationViewer,
      ref: EntryRef,
      commentId: number,
    ): Promise<CommentCheers> {
      return transaction(async () => {
        await discussed(viewer, ref);
        await liveComment(viewer, ref, commentId);
        const actorId = await actors.existingLocalActorId(viewer.id);
        const commentCheerId =
          actorId === undefined ? undefined : await repo.removeCommentCheer(commentId, actorId);
        if (commentCheerId !== undefined) {
          await record('UndoLikeComment', actorId!, ref, { commentCheerId, commentId });
        }
        return repo.commentCheers(commentId, viewer.id);
      });
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;

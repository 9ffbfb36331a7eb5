import { COMMENT_MAX_LENGTH } from '../../contract/conversation.ts';
import type { Transaction } from '../db/transaction.ts';
import type { NewActivity, PayloadInput } from '../outbox/activities.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { RemoteActorData } from '../actors/repository.ts';
import {
  createRemoteThreadRules,
  type IncomingMention,
  type IncomingReply,
  type NotedComment,
  type RemoteThreadDeps,
  type ReplyTarget,
} from './remote-threads.ts';
import { replyAudience } from './reply-audience.ts';
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
 * audience), get anything stored; a comment is answered or cheered only by an actor who may
 * read it (a DIRECT one: its author and addressees). Everything else is refused and changes
 * nothing. Each write records its activity in the outbox with the remote actor as its actor,
 * so the notifications (CHEER, COMMENT, REPLY, MENTION, COMMENT_CHEER) come from the same
 * handlers as local ones (src/conversation/notifications.ts). Federation sends nothing for
 * them (their actor is not local). The one exception is a post that only mentions a local
 * user: it is no comment, and its MENTION is written here.
 */
export function createRemoteConversation(
  deps: RemoteThreadDeps & {
    repo: ConversationRepository;
    outbox: Outbox;
    transaction: Transaction;
    now?: () => number;
  },
) {
  const { repo, threads, actors, outbox, transaction } = deps;
  const now = deps.now ?? Date.now;
  const { seenBy, commentOf, mayRead, threadOf, addresseesOf } = createRemoteThreadRules(deps);

  /** The entry and the actor's id when the actor may see the entry; else undefined. */
  async function audienceOf(actorUri: string, noted: NotedEntry) {
    const entry = await deps.federatedEntry(noted);
    const actorId = await seenBy(actorUri, entry);
    return actorId === undefined ? undefined : { entryId: entry!.id, actorId };
  }

  function record<T extends 'Like' | 'UndoLike' | 'Comment' | 'LikeComment' | 'UndoLikeComment'>(
    type: T,
    actorId: number,
    beverageId: number,
    payload: PayloadInput<T>,
  ): Promise<number> {
    return outbox.record({ actorId, type, beverageId, payload, createdAt: now() } as NewActivity);
  }

  /** Plain text as a comment holds it; undefined when nothing is left. */
  function commentText(text: string): string | undefined {
    const content = text.trim().slice(0, COMMENT_MAX_LENGTH).trim();
    return content === '' ? undefined : content;
  }

  // Each decision below reads and then writes on what it read (who may see the entry, whether
  // the cheer or the reply is stored already): both in one transaction, so that nothing
  // changes in between.
  return {
    /** A Like of the entry's Note: a cheer by the actor (once; a replay changes nothing). */
    receiveCheer(actorUri: string, noted: NotedEntry, likeUri: string): Promise<RemoteOutcome> {
      return transaction(async () => {
        const seen = await audienceOf(actorUri, noted);
        if (!seen) return 'refused';
        const cheerId = await repo.addRemoteCheer(seen.entryId, seen.actorId, likeUri, now());
        if (cheerId === undefined) return 'unchanged';
        await record('Like', seen.actorId, seen.entryId, { cheerId });
        return 'stored';
      });
    },

    /** A Like of a comment's Note: a cheer of the comment by the actor (once). */
    receiveCommentCheer(
      actorUri: string,
      noted: NotedComment,
      likeUri: string,
    ): Promise<RemoteOutcome> {
      return transaction(async () => {
        const found = await commentOf(noted);
        const actorId = found && (await seenBy(actorUri, found.entry));
        if (!found || actorId === undefined || !(await mayRead(found.comment, actorId))) {
          return 'refused';
        }
        const commentId = found.comment.id;
        const commentCheerId = await threads.addCheer(commentId, actorId, likeUri, now());
        if (commentCheerId === undefined) return 'unchanged';
        await record('LikeComment', actorId, found.entry.id, { commentCheerId, commentId });
        return 'stored';
      });
    },

    /**
     * A Like of a local user's comment on a remote vault's entry: that vault holds the thread and
     * decides who reads it there, so a Like from one of its actors that is known here is a cheer
     * of the comment (once), unless the comment's author and the actor blocked one another.
     */
    async receiveForeignCommentCheer(
      actorUri: string,
      noted: NotedComment,
      likeUri: string,
    ): Promise<RemoteOutcome> {
      if (!('commentId' in noted)) return 'refused';
      return transaction(async () => {
        const found = await threads.foreignThreadComment(noted.commentId);
        const actor = await actors.findRemoteByUri(actorUri);
        const authorId = noted.authorUserId;
        if (!found || !actor || (await actors.userIdOf(found.actorId)) !== authorId) {
          return 'refused';
        }
        if (new URL(actorUri).origin !== new URL(found.entryAuthorUri).origin) return 'refused';
        if (await deps.blocks.isBlockedEitherWay(authorId, actor.id)) return 'refused';
        const commentCheerId = await threads.addCheer(found.id, actor.id, likeUri, now());
        if (commentCheerId === undefined) return 'unchanged';
        await outbox.record({
          actorId: actor.id,
          type: 'LikeComment',
          remoteEntryId: found.remoteEntryId,
          payload: { commentCheerId, commentId: found.id },
          createdAt: now(),
        });
        return 'stored';
      });
    },

    /**
     * Undo of a Like: the actor's cheer (of an entry or a comment) made by that Like goes, or,
     * when the Like's id is not the stored one (a server that makes up ids), the actor's cheer
     * of the entry or comment the Like names.
     */
    receiveUndoCheer(
      actorUri: string,
      likeUri: string,
      liked?: ReplyTarget,
    ): Promise<RemoteOutcome> {
      return transaction(async () => {
        const actor = await actors.findRemoteByUri(actorUri);
        if (!actor) return 'refused';
        let removed = await repo.removeCheerByUri(likeUri, actor.id);
        if (!removed && liked && 'entry' in liked) {
          const entry = await deps.federatedEntry(liked.entry);
          const id = entry && (await repo.removeCheer({ kind: 'local', id: entry.id }, actor.id));
          if (entry && id !== undefined) removed = { id, beverageId: entry.id };
        }
        if (removed) {
          await record('UndoLike', actor.id, removed.beverageId, { cheerId: removed.id });
          return 'stored';
        }
        const named = liked && 'comment' in liked ? await commentOf(liked.comment) : undefined;
        let taken = await threads.removeCheerByUri(likeUri, actor.id);
        const commentId = named?.comment.id;
        if (!taken && commentId !== undefined) {
          const id = await repo.removeCommentCheer(commentId, actor.id);
          if (id !== undefined) taken = { id, commentId };
        }
        if (!taken) return 'unchanged';
        const beverageId = (await repo.commentRow(taken.commentId))?.beverageId;
        if (beverageId != null) {
          const payload = { commentCheerId: taken.id, commentId: taken.commentId };
          await record('UndoLikeComment', actor.id, beverageId, payload);
        }
        return 'stored';
      });
    },

    /**
     * A reply to an entry's Note or to a comment's, at any depth: a comment under the same
     * entry (its text already reduced from HTML), its audience read from `to`/`cc`
     * (reply-audience.ts) and the people it names as addressees. A reply addressed to people
     * alone (DIRECT) is stored only when one of them is a local user who may see the entry.
     */
    receiveComment(actorUri: string, reply: IncomingReply): Promise<RemoteOutcome> {
      return transaction(async () => {
        const thread = await threadOf(actorUri, reply.inReplyTo);
        const content = commentText(reply.text);
        if (!thread || content === undefined) return 'refused';
        const { entry, parent, actorId } = thread;
        const audience = replyAudience(reply.addressing, entry.userId);
        const at = Math.min(reply.publishedAt?.getTime() ?? now(), now());
        const addressees = await addresseesOf(reply.addressing, entry);
        if (audience === 'DIRECT' && !addressees.localReader) return 'refused';
        const id = await threads.addReply({
          beverageId: entry.id,
          actorId,
          content,
          noteUri: reply.noteUri,
          parentId: parent?.id ?? null,
          audience,
          at,
        });
        if (id === undefined) return 'unchanged';
        await threads.addAddressees(
          id,
          addressees.rows.filter((a) => a.actorId !== actorId),
        );
        await record('Comment', actorId, entry.id, { commentId: id });
        return 'stored';
      });
    },

    /**
     * A fediverse post that mentions local users and answers nothing here: each of them who
     * has not blocked its author (nor been blocked) gets a MENTION with its text and a link to
     * it; nothing else of it is kept. The author's actor is stored (fetched by `actorData` when
     * unknown, outside any transaction), as the notification's sender.
     */
    async receiveMention(
      actorUri: string,
      mention: IncomingMention,
      actorData: () => Promise<RemoteActorData | null>,
    ): Promise<RemoteOutcome> {
      const message = commentText(mention.text) ?? '';
      let actor = (await actors.findRemoteByUri(actorUri))?.id;
      if (actor === undefined) {
        const data = await actorData();
        if (!data || data.uri !== actorUri) return 'refused';
        actor = await actors.saveRemote(data, now());
      }
      const senderId = actor;
      const told = await transaction(async () => {
        const recipients: number[] = [];
        for (const recipientId of mention.userIds) {
          if (await deps.blocks.isBlockedEitherWay(recipientId, senderId)) continue;
          const at = now();
          if (await threads.addMention({ recipientId, senderId, message, url: mention.url, at })) {
            recipients.push(recipientId);
          }
        }
        return recipients;
      });
      return told.length > 0 ? 'stored' : 'unchanged';
    },

    /**
     * Whether a comment's Note names a comment under a local entry (deleted or not), whose
     * thread is here; one under a remote vault's entry is that vault's to answer.
     */
    async isLocalThreadComment(noted: NotedComment): Promise<boolean> {
      const found =
        'commentUri' in noted
          ? await repo.commentByUri(noted.commentUri)
          : await repo.commentRow(noted.commentId);
      return found !== undefined && found.beverageId !== null;
    },

    /** Whether a Note id is a stored reply (so an Update or Delete of it is for these). */
    async isStoredReply(noteUri: string): Promise<boolean> {
      return (await repo.commentByUri(noteUri)) !== undefined;
    },

    /** An edited reply: its author's Update replaces the text, when newer than what is stored. */
    receiveCommentUpdate(
      actorUri: string,
      noteUri: string,
      text: string,
      updatedAt: Date | undefined,
    ): Promise<RemoteOutcome> {
      return transaction(async () => {
        const actor = await actors.findRemoteByUri(actorUri);
        const comment = await repo.commentByUri(noteUri);
        const content = commentText(text);
        if (!actor || !comment || comment.actorId !== actor.id || content === undefined) {
          return 'refused';
        }
        // Deleted, kept for its answers: unchanged.
        if (!(await threads.commentByUri(noteUri))) return 'unchanged';
        const at = updatedAt?.getTime() ?? now();
        if (at <= comment.updatedAt) return 'unchanged';
        await repo.updateComment(comment.id, content, Math.min(at, now()));
        return 'stored';
      });
    },

    /**
     * A deleted reply: its author's Delete removes it and its notifications, or, when it has
     * answers, keeps it as a deleted comment under which they stay (as a local deletion does).
     */
    receiveCommentDelete(actorUri: string, noteUri: string): Promise<RemoteOutcome> {
      return transaction(async () => {
        const actor = await actors.findRemoteByUri(actorUri);
        const comment = await repo.commentByUri(noteUri);
        if (!actor || !comment || comment.actorId !== actor.id) return 'refused';
        if (!(await threads.commentByUri(noteUri))) return 'unchanged';
        await repo.deleteOrTombstone(comment.id, now());
        return 'stored';
      });
    },
  };
}

export type RemoteConversation = ReturnType<typeof createRemoteConversation>;

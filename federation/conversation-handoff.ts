import type { Federation } from '@fedify/fedify';
import type { ActivityRow } from '../src/db/schema/index.ts';
import { payloadOf, type PayloadOf } from '../src/outbox/activities.ts';
import type { Sender } from '../src/outbox/handoffs.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { NoteReads } from '../src/conversation/note-reads.ts';
import type { ConversationJob } from './conversation-delivery.ts';
import { likeUri } from './paths.ts';
import { entryOfComment, type CommentThreadDeps } from './comment-threads.ts';
import { commentJob, commentLikeJob, personally } from './comment-jobs.ts';
import { sendWithFedify } from './handoff-parts.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first cheer or comment that has somewhere to go (`send`, conversation-delivery.ts).

export interface ConversationHandoffDeps {
  origin: string;
  users: CommentThreadDeps['users'];
  actors: CommentThreadDeps['actors'];
  remoteEntries: CommentThreadDeps['remoteEntries'];
  /** A local entry that is in the fediverse, with the generation of its Note id. */
  federatedEntries: CommentThreadDeps['entries'];
  /** Comments, their addressees and cheers as their Notes are written (note-reads.ts). */
  notes: NoteReads;
  federation: { load(): Promise<{ federation: Federation<void> }> };
  /** Replaces how a job reaches Fedify's queue (tests); conversation-delivery.ts by default. */
  send?: (job: ConversationJob) => Promise<void>;
}

/**
 * A local user's cheers and comments leave through the outbox (docs/federation.md, "Cheers and
 * comments across servers"): Like and UndoLike of a remote vault's entry go to its actor;
 * Comment and DeleteComment become Create(Note) and Delete(Tombstone) for the comment's
 * audience (comment-jobs.ts); LikeComment and UndoLikeComment become Like and Undo(Like) of the
 * comment's Note. Signed as the user and handed to Fedify (`send`). Ids follow from the rows'
 * own ids, so a job sent twice is the same activity. Nothing of a user whose activityPubEnabled
 * is off is sent.
 */
export function registerConversationHandoff(outbox: Outbox, deps: ConversationHandoffDeps): void {
  const threadDeps: CommentThreadDeps = { ...deps, entries: deps.federatedEntries };

  /** The sender, when federating: the local user `userId`, whose actor is `actorId`. */
  async function federating(userId: number, actorId: number) {
    const user = await deps.users.findById(userId);
    return user?.activityPubEnabled ? { username: user.username, actorId } : undefined;
  }

  /** The local, federating user behind an actor (a deleted comment's author). */
  async function userOf(
    actorId: number | undefined,
  ): Promise<{ username: string; actorId: number } | undefined> {
    const me = actorId === undefined ? undefined : await deps.actors.findById(actorId);
    return me?.userId == null ? undefined : federating(me.userId, me.id);
  }

  /** A cheer of a remote vault's entry: to its actor (a Like of a local entry has nowhere to go). */
  async function entryLikeJob(activity: ActivityRow, payload: PayloadOf<'Like'>, sender: Sender) {
    const user = await federating(sender.userId, activity.actorId);
    const { cheerId } = payload;
    if (!user || activity.remoteEntryId === null) return undefined;
    const entry = await entryOfComment(threadDeps, {
      beverageId: null,
      remoteEntryId: activity.remoteEntryId,
    });
    const author = entry?.remoteAuthor;
    if (!entry || !author?.uri || !author.inboxUrl) return undefined;
    return {
      kind: activity.type as 'Like' | 'UndoLike',
      username: user.username,
      key: `cheer:${cheerId}`,
      likeId: likeUri(deps.origin, user.username, cheerId).href,
      object: entry.entryNote,
      to: [author.uri],
      cc: [],
      groups: [personally([author])],
    } satisfies ConversationJob;
  }

  async function jobOf(
    activity: ActivityRow,
    sender: Sender,
  ): Promise<ConversationJob | undefined> {
    const jobDeps = { ...threadDeps, notes: deps.notes };
    const cheer = payloadOf(activity, 'Like') ?? payloadOf(activity, 'UndoLike');
    if (cheer) return entryLikeJob(activity, cheer, sender);
    const comment = payloadOf(activity, 'Comment');
    if (comment) {
      const user = await federating(sender.userId, activity.actorId);
      return commentJob(jobDeps, activity, comment, user);
    }
    // A deleted comment's Delete is its author's (whose Note it was), whoever deleted it.
    const deleted = payloadOf(activity, 'DeleteComment');
    if (deleted) return commentJob(jobDeps, activity, deleted, await userOf(deleted.authorId));
    const commentCheer =
      payloadOf(activity, 'LikeComment') ?? payloadOf(activity, 'UndoLikeComment');
    if (commentCheer) {
      const user = await federating(sender.userId, activity.actorId);
      return commentLikeJob(jobDeps, activity, commentCheer, user);
    }
    return undefined;
  }

  outbox.federate<ConversationJob>({
    name: 'conversation',
    types: ['Like', 'UndoLike', 'Comment', 'DeleteComment', 'LikeComment', 'UndoLikeComment'],
    job: jobOf,
    send:
      deps.send ??
      sendWithFedify(
        deps,
        async () => (await import('./conversation-delivery.ts')).sendConversationActivity,
      ),
  });
}

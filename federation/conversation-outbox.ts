import type { Federation } from '@fedify/fedify';
import type { ActivityRow } from '../src/db/schema/index.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { NoteReads } from '../src/conversation/note-reads.ts';
import type { ConversationJob } from './conversation-delivery.ts';
import { likeUri } from './paths.ts';
import { entryOfComment, type CommentThreadDeps } from './comment-threads.ts';
import { commentJob, commentLikeJob, personally } from './comment-jobs.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first cheer or comment that has somewhere to go (`send`, conversation-delivery.ts).

export interface ConversationOutboxDeps {
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

function payloadOf(activity: ActivityRow): Record<string, unknown> {
  try {
    const value = JSON.parse(activity.payload ?? 'null') as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A local user's cheers and comments leave through the outbox (docs/federation.md, "Cheers and
 * comments across servers"): Like and UndoLike of a remote vault's entry go to its actor;
 * Comment and DeleteComment become Create(Note) and Delete(Tombstone) for the comment's
 * audience (comment-jobs.ts); LikeComment and UndoLikeComment become Like and Undo(Like) of the
 * comment's Note. Signed as the user and handed to Fedify (`send`). Ids follow from the rows'
 * own ids, so a job sent twice is the same activity. Activities of remote actors (received
 * cheers and replies) are not sent, nor anything of a user whose activityPubEnabled is off.
 */
export function registerConversationDelivery(outbox: Outbox, deps: ConversationOutboxDeps): void {
  const threadDeps: CommentThreadDeps = { ...deps, entries: deps.federatedEntries };

  /** The local, federating user behind an actor. */
  function userOf(actorId: unknown): { username: string; actorId: number } | undefined {
    const me = typeof actorId === 'number' ? deps.actors.findById(actorId) : undefined;
    const user = me?.userId == null ? undefined : deps.users.findById(me.userId);
    return user?.activityPubEnabled ? { username: user.username, actorId: me!.id } : undefined;
  }

  /** A cheer of a remote vault's entry: to its actor (a Like of a local entry has nowhere to go). */
  function entryLikeJob(activity: ActivityRow, payload: Record<string, unknown>) {
    const user = userOf(activity.actorId);
    const cheerId = payload.cheerId;
    if (!user || typeof cheerId !== 'number' || activity.remoteEntryId === null) return undefined;
    const entry = entryOfComment(threadDeps, {
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

  function jobOf(activity: ActivityRow): ConversationJob | undefined {
    const payload = payloadOf(activity);
    const jobDeps = { ...threadDeps, notes: deps.notes };
    switch (activity.type) {
      case 'Like':
      case 'UndoLike':
        return entryLikeJob(activity, payload);
      case 'Comment':
        return commentJob(jobDeps, activity, payload, userOf(activity.actorId));
      // A deleted comment's Delete is its author's (whose Note it was), whoever deleted it.
      case 'DeleteComment':
        return commentJob(jobDeps, activity, payload, userOf(payload.authorId));
      case 'LikeComment':
      case 'UndoLikeComment':
        return commentLikeJob(jobDeps, activity, payload, userOf(activity.actorId));
      default:
        return undefined;
    }
  }

  outbox.federate<ConversationJob>({
    name: 'conversation',
    types: ['Like', 'UndoLike', 'Comment', 'DeleteComment', 'LikeComment', 'UndoLikeComment'],
    job: jobOf,
    send:
      deps.send ??
      (async (job) => {
        const { federation } = await deps.federation.load();
        const { sendConversationActivity } = await import('./conversation-delivery.ts');
        await sendConversationActivity(federation, deps.origin, job);
      }),
    // A Like before its Undo, a comment before its Delete.
    orderingKey: (job) => job.key,
  });
}

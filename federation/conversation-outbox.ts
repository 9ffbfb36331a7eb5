import type { Federation } from '@fedify/fedify';
import type { ActivityRow, ActorRow } from '../src/db/schema/index.ts';
import type { ConversationRepository } from '../src/conversation/repository.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { ConversationJob } from './conversation-delivery.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first cheer or comment that has somewhere to go (`send`, conversation-delivery.ts).

export interface ConversationOutboxDeps {
  origin: string;
  users: {
    findById(id: number): { username: string; activityPubEnabled: boolean } | undefined;
  };
  actors: { findById(actorId: number): ActorRow | undefined };
  repo: Pick<ConversationRepository, 'commentRow'>;
  remoteEntries: { findById(id: number): { noteUri: string; actorId: number } | undefined };
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
 * A local user's cheers and comments on a remote vault's entry go to that entry's actor, as
 * Mastodon sends them: the outbox's Like, UndoLike, Comment and DeleteComment become Like,
 * Undo(Like), Create(Note inReplyTo the entry's Note) and Delete(Tombstone), signed as the user
 * and handed to Fedify (`send`) for the actor's inbox. Ids follow from the cheer's or comment's
 * own id, so a job sent twice is the same activity. Activities on local entries, and those of
 * remote actors (received cheers and replies), are not sent; nor anything of a user whose
 * activityPubEnabled is off.
 */
export function registerConversationDelivery(outbox: Outbox, deps: ConversationOutboxDeps): void {
  function jobOf(activity: ActivityRow): ConversationJob | undefined {
    if (activity.remoteEntryId === null) return undefined;
    const me = deps.actors.findById(activity.actorId);
    if (!me || me.userId === null) return undefined;
    const user = deps.users.findById(me.userId);
    const entry = deps.remoteEntries.findById(activity.remoteEntryId);
    const them = entry && deps.actors.findById(entry.actorId);
    if (!user?.activityPubEnabled || !entry || !them?.uri || !them.inboxUrl) return undefined;
    const base = {
      username: user.username,
      noteUri: entry.noteUri,
      recipient: {
        uri: them.uri,
        inboxUrl: them.inboxUrl,
        sharedInboxUrl: them.sharedInboxUrl,
        handle: them.handle,
      },
    };
    const payload = payloadOf(activity);
    const cheerId = payload.cheerId;
    const commentId = payload.commentId;
    switch (activity.type) {
      case 'Like':
      case 'UndoLike':
        return typeof cheerId === 'number' ? { kind: activity.type, cheerId, ...base } : undefined;
      case 'Comment': {
        const comment = typeof commentId === 'number' ? deps.repo.commentRow(commentId) : undefined;
        if (!comment) return undefined; // deleted before it went: nothing to tell
        return {
          kind: 'Comment',
          commentId: comment.id,
          content: comment.content,
          published: comment.createdAt.toISOString(),
          ...base,
        };
      }
      case 'DeleteComment':
        // The Note was the author's: only the author's own deletion is sent.
        if (typeof commentId !== 'number' || payload.authorId !== activity.actorId)
          return undefined;
        return { kind: 'DeleteComment', commentId, ...base };
      default:
        return undefined;
    }
  }

  outbox.federate<ConversationJob>({
    name: 'conversation',
    types: ['Like', 'UndoLike', 'Comment', 'DeleteComment'],
    job: jobOf,
    send:
      deps.send ??
      (async (job) => {
        const { federation } = await deps.federation.load();
        const { sendConversationActivity } = await import('./conversation-delivery.ts');
        await sendConversationActivity(federation, deps.origin, job);
      }),
    // A Like before its Undo, a comment before its Delete.
    orderingKey: (job) => ('cheerId' in job ? `cheer:${job.cheerId}` : `comment:${job.commentId}`),
  });
}

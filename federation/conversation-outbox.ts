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
  /** A local entry that is in the fediverse, with the generation of its Note id. */
  federatedEntries: {
    byId(id: number): { id: number; userId: number; noteGeneration: number } | undefined;
  };
  /** A local user's accepted remote followers, in follow order after the follow `afterId`. */
  remoteFollowers(userId: number, afterId: number, limit: number): FollowRecipientRow[];
  federation: { load(): Promise<{ federation: Federation<void> }> };
  /** Replaces how a job reaches Fedify's queue (tests); conversation-delivery.ts by default. */
  send?: (job: ConversationJob) => Promise<void>;
}

interface FollowRecipientRow {
  followId: number;
  uri: string;
  inboxUrl: string | null;
  sharedInboxUrl: string | null;
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
  /** A local entry's Note and owner's remote followers, when a comment on it has somewhere to go. */
  function localTarget(beverageId: number) {
    const entry = deps.federatedEntries.byId(beverageId);
    const owner = entry && deps.users.findById(entry.userId);
    if (!entry || !owner?.activityPubEnabled) return undefined;
    const followers: ConversationJob['recipient'][] = [];
    for (let after = 0; ;) {
      const page = deps.remoteFollowers(entry.userId, after, 1000);
      for (const f of page) {
        if (f.inboxUrl) followers.push({ ...f, inboxUrl: f.inboxUrl, handle: null });
      }
      if (page.length < 1000) break;
      after = page[page.length - 1]!.followId;
    }
    if (followers.length === 0) return undefined;
    const id = entry.noteGeneration > 0 ? `${entry.id}-${entry.noteGeneration}` : String(entry.id);
    const ownerUri = `${deps.origin}/users/${encodeURIComponent(owner.username)}`;
    return {
      noteUri: `${ownerUri}/entries/${id}`,
      recipient: {
        uri: ownerUri,
        inboxUrl: `${ownerUri}/inbox`,
        sharedInboxUrl: null,
        handle: `${owner.username}@${new URL(deps.origin).host}`,
      },
      audience: { owner: owner.username, followers },
    };
  }

  /** Where the activity goes: a remote entry's actor, or a local entry's remote followers. */
  function targetOf(activity: ActivityRow) {
    if (activity.remoteEntryId !== null) {
      const entry = deps.remoteEntries.findById(activity.remoteEntryId);
      const them = entry && deps.actors.findById(entry.actorId);
      if (!entry || !them?.uri || !them.inboxUrl) return undefined;
      const recipient = {
        uri: them.uri,
        inboxUrl: them.inboxUrl,
        sharedInboxUrl: them.sharedInboxUrl,
        handle: them.handle,
      };
      return { noteUri: entry.noteUri, recipient };
    }
    // Only comments on local entries go to the owner's followers (a Like goes to the author).
    const comment = activity.type === 'Comment' || activity.type === 'DeleteComment';
    return activity.beverageId !== null && comment ? localTarget(activity.beverageId) : undefined;
  }

  function jobOf(activity: ActivityRow): ConversationJob | undefined {
    const payload = payloadOf(activity);
    // A deleted comment's Delete is its author's (whose Note it was), whoever deleted it.
    const author = activity.type === 'DeleteComment' ? payload.authorId : activity.actorId;
    const me = typeof author === 'number' ? deps.actors.findById(author) : undefined;
    if (!me || me.userId === null) return undefined;
    const user = deps.users.findById(me.userId);
    const target = user?.activityPubEnabled ? targetOf(activity) : undefined;
    if (!user || !target) return undefined;
    const base = { username: user.username, ...target };
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
        return typeof commentId === 'number'
          ? { kind: 'DeleteComment', commentId, ...base }
          : undefined;
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

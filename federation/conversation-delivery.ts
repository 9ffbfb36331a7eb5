import type { Federation } from '@fedify/fedify';
import { Create, Delete, Like, Mention, Note, Tombstone, Undo } from '@fedify/vocab';
import { instantFromDate } from './temporal.ts';
import { textToLinkedHtml } from './html.ts';
import { recipientOf, type FollowRecipient } from './follow-delivery.ts';

/** A remote entry's actor, as a cheer or comment on it is addressed. */
export type ConversationRecipient = FollowRecipient & { handle: string | null };

/**
 * A local entry's owner and their remote followers: a comment on a local entry goes to them,
 * addressed like the entry (the owner's followers).
 */
export interface EntryAudienceJob {
  owner: string;
  followers: FollowRecipient[];
}

/**
 * A cheer or comment of the local user `username` on the Note `noteUri`, in plain data: a
 * remote vault's entry (for its actor, `recipient`) or, for a comment, a local entry (`audience`).
 */
export type ConversationJob = {
  username: string;
  noteUri: string;
  recipient: ConversationRecipient;
  audience?: EntryAudienceJob;
} & (
  | { kind: 'Like' | 'UndoLike'; cheerId: number }
  | { kind: 'Comment'; commentId: number; content: string; published: string }
  | { kind: 'DeleteComment'; commentId: number }
);

/** One cheer's or one comment's activities, in the order they were recorded. */
export function conversationKey(job: ConversationJob): string {
  return 'cheerId' in job ? `cheer:${job.cheerId}` : `comment:${job.commentId}`;
}

/** The ids of a cheer's Like and a comment's Note: they follow from the row's own id. */
export function likeUri(origin: string, username: string, cheerId: number): URL {
  return new URL(`/users/${encodeURIComponent(username)}/likes/${cheerId}`, origin);
}

export function commentNoteUri(origin: string, username: string, commentId: number): URL {
  return new URL(`/users/${encodeURIComponent(username)}/comments/${commentId}`, origin);
}

/**
 * Whom a comment's Note is addressed to: the remote entry's author, or a local entry's owner's
 * followers (as the entry is) with the owner in `cc`; the entry's author is mentioned.
 */
export function commentAddressing(job: Pick<ConversationJob, 'recipient' | 'audience'>) {
  return {
    to: job.audience ? `${job.recipient.uri}/followers` : job.recipient.uri,
    cc: job.audience ? job.recipient.uri : null,
    mention: job.recipient,
  };
}

/**
 * A comment as a Note: a reply (`inReplyTo`) to the entry's Note, addressed to the remote
 * entry's author only (`to`, with a Mention so that their server tells them), never public;
 * the text as escaped HTML with its links.
 */
export function commentNote(
  origin: string,
  comment: {
    username: string;
    commentId: number;
    noteUri: string;
    content: string;
    published: string;
  },
  addressing: { to: string; cc?: string | null; mention: { uri: string; handle: string | null } },
): Note {
  const author = new URL(`/users/${encodeURIComponent(comment.username)}`, origin);
  const { mention } = addressing;
  return new Note({
    id: commentNoteUri(origin, comment.username, comment.commentId),
    attribution: author,
    replyTarget: new URL(comment.noteUri),
    to: new URL(addressing.to),
    ccs: addressing.cc ? [new URL(addressing.cc)] : [],
    content: textToLinkedHtml(comment.content) ?? '',
    published: instantFromDate(new Date(comment.published)),
    tags: [
      new Mention({
        href: new URL(mention.uri),
        name: mention.handle ? `@${mention.handle.replace(/^@/, '')}` : mention.uri,
      }),
    ],
  });
}

/** The job's activity, as Fedify serialises it. */
export function conversationActivity(
  origin: string,
  job: ConversationJob,
): Like | Undo | Create | Delete {
  const actor = new URL(`/users/${encodeURIComponent(job.username)}`, origin);
  const to = new URL(job.recipient.uri);
  switch (job.kind) {
    case 'Like':
    case 'UndoLike': {
      const like = new Like({
        id: likeUri(origin, job.username, job.cheerId),
        actor,
        object: new URL(job.noteUri),
        to,
      });
      if (job.kind === 'Like') return like;
      return new Undo({ id: new URL(`${like.id!.href}/undo`), actor, object: like, to });
    }
    case 'Comment': {
      const note = commentNote(origin, job, commentAddressing(job));
      return new Create({
        id: new URL(`${note.id!.href}/activity`),
        actor,
        object: note,
        tos: note.toIds,
        ccs: note.ccIds,
        published: note.published,
      });
    }
    case 'DeleteComment': {
      const id = commentNoteUri(origin, job.username, job.commentId);
      const addressing = commentAddressing(job);
      return new Delete({
        id: new URL(`${id.href}#delete`),
        actor,
        object: new Tombstone({ id }),
        to: new URL(addressing.to),
        ccs: addressing.cc ? [new URL(addressing.cc)] : [],
      });
    }
  }
}

/** Puts the job's activity into Fedify's queue, signed as the user, for the entry's actor. */
export async function sendConversationActivity(
  federation: Federation<void>,
  origin: string,
  job: ConversationJob,
): Promise<void> {
  const context = federation.createContext(new URL(origin), undefined);
  // A local entry's thread: each follower's own inbox, so that their server lets them see a
  // reply addressed to another account's followers (Mastodon admits it to its inbox's owner).
  const recipients = job.audience
    ? job.audience.followers.map((follower) => recipientOf({ ...follower, sharedInboxUrl: null }))
    : recipientOf(job.recipient);
  if (Array.isArray(recipients) && recipients.length === 0) return;
  await context.sendActivity(
    { identifier: job.username },
    recipients,
    conversationActivity(origin, job),
    { orderingKey: `${job.username} ${conversationKey(job)}` },
  );
}

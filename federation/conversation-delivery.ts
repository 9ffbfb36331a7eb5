import type { Federation } from '@fedify/fedify';
import { Create, Delete, Like, Mention, Note, Tombstone, Undo } from '@fedify/vocab';
import { instantFromDate } from './temporal.ts';
import { recipientOf, type FollowRecipient } from './follow-delivery.ts';
import {
  commentHtml,
  commentNoteUri,
  localActorUri,
  type CommentAddressing,
} from './comment-addressing.ts';

export { commentNoteUri } from './comment-addressing.ts';

/**
 * Who receives one form of a job's activity. `cc`: the recipients themselves, added to the
 * activity's `cc` so that a server reached at its shared inbox lets each of them read it
 * (Mastodon admits an account named in `to`/`cc`). `names`: name-only Mentions (`@name@host`,
 * no `href`) of those who do not follow the comment's author, which makes the Note theirs for
 * GoToSocial (it keeps a status only from an account the receiver follows or that mentions
 * them) while Mastodon, which reads only a Mention's `href`, notifies nobody.
 */
export interface DeliveryGroup {
  recipients: FollowRecipient[];
  /** One POST per server that has a shared inbox, instead of one per recipient. */
  preferShared: boolean;
  cc: string[];
  names: string[];
}

/**
 * A cheer or comment of the local user `username`, in plain data, with its recipients in
 * groups (one activity each). `key` orders one cheer's or one comment's activities.
 */
export type ConversationJob = {
  username: string;
  key: string;
  groups: DeliveryGroup[];
} & (
  | { kind: 'Like' | 'UndoLike'; likeId: string; object: string; to: string[]; cc: string[] }
  | {
      kind: 'Comment';
      commentId: number;
      content: string;
      published: string;
      addressing: CommentAddressing;
    }
  | { kind: 'DeleteComment'; commentId: number; to: string[]; cc: string[] }
);

const urls = (ids: Iterable<string>) => [...new Set(ids)].map((id) => new URL(id));

/**
 * A comment as a Note (docs/federation.md, "Cheers and comments across servers"): a reply
 * (`inReplyTo`) addressed as `addressing` says, a Mention of each person it mentions (and
 * `extra.names` without `href`), its text as escaped HTML with its links and mention links.
 */
export function commentNote(
  origin: string,
  comment: { username: string; commentId: number; content: string; published: string },
  addressing: CommentAddressing,
  extra: Pick<DeliveryGroup, 'cc' | 'names'> = { cc: [], names: [] },
): Note {
  return new Note({
    id: commentNoteUri(origin, comment.username, comment.commentId),
    attribution: new URL(localActorUri(origin, comment.username)),
    replyTarget: new URL(addressing.inReplyTo),
    tos: urls(addressing.to),
    ccs: urls([...addressing.cc, ...extra.cc].filter((id) => !addressing.to.includes(id))),
    content: commentHtml(comment.content, addressing.links),
    published: instantFromDate(new Date(comment.published)),
    tags: [
      ...addressing.mentions.map((m) => new Mention({ href: new URL(m.href), name: m.name })),
      ...extra.names.map((name) => new Mention({ name })),
    ],
  });
}

/** The job's activity for one group of its recipients, as Fedify serialises it. */
export function conversationActivity(
  origin: string,
  job: ConversationJob,
  group: Pick<DeliveryGroup, 'cc' | 'names'> = { cc: [], names: [] },
): Like | Undo | Create | Delete {
  const actor = new URL(localActorUri(origin, job.username));
  switch (job.kind) {
    case 'Like':
    case 'UndoLike': {
      const tos = urls(job.to);
      const ccs = urls([...job.cc, ...group.cc].filter((id) => !job.to.includes(id)));
      const like = new Like({
        id: new URL(job.likeId),
        actor,
        object: new URL(job.object),
        tos,
        ccs,
      });
      if (job.kind === 'Like') return like;
      return new Undo({ id: new URL(`${job.likeId}/undo`), actor, object: like, tos, ccs });
    }
    case 'Comment': {
      const note = commentNote(origin, job, job.addressing, group);
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
      return new Delete({
        id: new URL(`${id.href}#delete`),
        actor,
        object: new Tombstone({ id }),
        tos: urls(job.to),
        ccs: urls([...job.cc, ...group.cc].filter((uri) => !job.to.includes(uri))),
      });
    }
  }
}

/**
 * Puts the job's activities into Fedify's queue, signed as the user, one per group. The groups
 * are signed side by side: each is a document of its own (its Linked Data signature and proof),
 * and their recipients differ, so no order between them matters.
 */
export async function sendConversationActivity(
  federation: Federation<void>,
  origin: string,
  job: ConversationJob,
): Promise<void> {
  const context = federation.createContext(new URL(origin), undefined);
  await Promise.all(
    job.groups
      .filter((group) => group.recipients.length > 0)
      .map((group) =>
        context.sendActivity(
          { identifier: job.username },
          group.recipients.map((r) =>
            recipientOf(group.preferShared ? r : { ...r, sharedInboxUrl: null }),
          ),
          conversationActivity(origin, job, group),
          { orderingKey: `${job.username} ${job.key}`, preferSharedInbox: group.preferShared },
        ),
      ),
  );
}

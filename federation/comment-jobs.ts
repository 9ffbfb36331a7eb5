import type { ActivityRow } from '../src/db/schema/index.ts';
import type { PayloadOf } from '../src/outbox/activities.ts';
import type { CommentForNote, NoteParty, NoteReads } from '../src/conversation/note-reads.ts';
import type { CommentAudience } from '../contract/enums.ts';
import {
  commentAddressing,
  commentNoteUri,
  partyUri,
  type CommentAddressing,
} from './comment-addressing.ts';
import { entryOfComment, type CommentThreadDeps, type EntryOfComment } from './comment-threads.ts';
import type { ConversationJob, DeliveryGroup } from './conversation-delivery.ts';
import { commentLikeUri } from './paths.ts';
import type { FollowRecipient } from './follow-delivery.ts';

// No Fedify here: the jobs of a comment's activities in plain data (conversation-handoff.ts).

export type CommentJobDeps = CommentThreadDeps & { notes: NoteReads };

/** The local, federating user who sends the activity. */
type Sender = { username: string; actorId: number } | undefined;

const PAGE = 1000;

/** Remote parties as recipients at their own inboxes (one POST each). */
export function personally(parties: readonly NoteParty[]): DeliveryGroup {
  const recipients: FollowRecipient[] = [];
  for (const p of parties) {
    if (p.username === null && p.uri && p.inboxUrl) {
      recipients.push({ uri: p.uri, inboxUrl: p.inboxUrl, sharedInboxUrl: null });
    }
  }
  return { recipients, preferShared: false, cc: [], names: [] };
}

/**
 * The remote people a comment's Note names (addressees, the author of the comment answered, a
 * remote entry's author unless the comment is DIRECT): each at their own inbox.
 */
function addressedParties(
  origin: string,
  comment: CommentForNote,
  entry: EntryOfComment,
  addressees: readonly NoteParty[],
  addressing: CommentAddressing,
): NoteParty[] {
  const named = new Set([...addressing.to, ...addressing.cc]);
  const candidates = [...addressees];
  if (comment.parent) candidates.push(comment.parent.author);
  if (entry.remoteAuthor && comment.audience !== 'DIRECT') candidates.push(entry.remoteAuthor);
  const seen = new Set<string>();
  return candidates.filter((p) => {
    const uri = partyUri(origin, p);
    if (p.username !== null || !uri || !named.has(uri) || seen.has(uri)) return false;
    seen.add(uri);
    return true;
  });
}

/**
 * A local entry's owner's remote followers that a comment of this audience reaches (all of them,
 * or those who also follow the comment's author), less those `already` reached, grouped by
 * server: one activity per server naming its recipients in `cc` (so that one POST to its shared
 * inbox serves them all), with a name-only Mention of each who does not follow the author.
 */
async function followerGroups(
  deps: CommentJobDeps,
  ownerId: number,
  authorActorId: number,
  audience: CommentAudience,
  already: ReadonlySet<string>,
): Promise<DeliveryGroup[]> {
  const groups = new Map<string, DeliveryGroup>();
  for (let after = 0; ;) {
    const page = await deps.notes.ownerFollowers(ownerId, authorActorId, after, PAGE);
    for (const f of page) {
      if (!f.inboxUrl || already.has(f.uri)) continue;
      if (audience === 'AUTHOR_FOLLOWERS' && !f.followsAuthor) continue;
      const server = f.sharedInboxUrl ?? new URL(f.uri).origin;
      let group = groups.get(server);
      if (!group)
        groups.set(server, (group = { recipients: [], preferShared: true, cc: [], names: [] }));
      group.recipients.push({ uri: f.uri, inboxUrl: f.inboxUrl, sharedInboxUrl: f.sharedInboxUrl });
      group.cc.push(f.uri);
      if (!f.followsAuthor && f.handle) group.names.push(`@${f.handle.replace(/^@/, '')}`);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.followId;
  }
  return [...groups.values()];
}

/**
 * The comment as its Delete needs it when its row is gone: the activity's entry, and the
 * audience and addressees its payload names (`audience`, `addresseeIds`), if it names them.
 */
async function deletedComment(
  deps: CommentJobDeps,
  activity: ActivityRow,
  payload: PayloadOf<'DeleteComment'>,
  commentId: number,
  author: NoteParty,
): Promise<{ comment: CommentForNote; addressees: (NoteParty & { mentioned: boolean })[] }> {
  const addressees: (NoteParty & { mentioned: boolean })[] = [];
  for (const id of payload.addresseeIds ?? []) {
    const actor = await deps.actors.findById(id);
    if (!actor) continue;
    const user = actor.userId === null ? undefined : await deps.users.findById(actor.userId);
    const party: NoteParty = {
      actorId: actor.id,
      username: user?.username ?? null,
      federates: user?.activityPubEnabled ?? true,
      uri: actor.uri,
      handle: actor.handle,
      inboxUrl: actor.inboxUrl,
      sharedInboxUrl: actor.sharedInboxUrl,
    };
    addressees.push({ ...party, mentioned: false });
  }
  const comment: CommentForNote = {
    id: commentId,
    beverageId: activity.beverageId,
    remoteEntryId: activity.remoteEntryId,
    content: '',
    uri: null,
    createdAt: new Date(activity.createdAt),
    audience: payload.audience ?? ('PUBLIC' satisfies CommentAudience),
    deleted: true,
    author,
    parent: null,
  };
  return { comment, addressees };
}

/**
 * Comment and DeleteComment: Create(Note) and Delete(Tombstone) for the comment's audience
 * (commentAddressing): its addressees and the people it mentions at their own inboxes; unless
 * it is DIRECT, a remote entry's author, or a local entry's owner's remote followers (for
 * AUTHOR_FOLLOWERS those of them who follow its author too), grouped by server.
 */
export async function commentJob(
  deps: CommentJobDeps,
  activity: ActivityRow,
  payload: PayloadOf<'Comment'> | PayloadOf<'DeleteComment'>,
  sender: Sender,
): Promise<ConversationJob | undefined> {
  const { commentId } = payload;
  if (!sender) return undefined;
  const stored = await deps.notes.comment(commentId);
  const author: NoteParty = {
    actorId: sender.actorId,
    username: sender.username,
    federates: true,
    uri: null,
    handle: null,
    inboxUrl: null,
    sharedInboxUrl: null,
  };
  let comment: CommentForNote;
  let addressees: (NoteParty & { mentioned: boolean })[];
  if (activity.type === 'Comment') {
    if (!stored || stored.deleted) return undefined; // deleted before it went: nothing to tell
    comment = stored;
    addressees = await deps.notes.addressees(commentId);
  } else if (stored) {
    comment = stored; // kept for its answers (deleted_at)
    addressees = await deps.notes.addressees(commentId);
  } else {
    ({ comment, addressees } = await deletedComment(deps, activity, payload, commentId, author));
  }
  const entry = await entryOfComment(deps, comment);
  if (!entry) return undefined;
  const addressing = commentAddressing({
    origin: deps.origin,
    entryNote: entry.entryNote,
    entryAuthor: entry.entryAuthor,
    localEntry: entry.ownerId !== null,
    comment: { ...comment, author },
    addressees,
  });
  const addressed = addressedParties(deps.origin, comment, entry, addressees, addressing);
  const groups = [personally(addressed)];
  if (entry.ownerId !== null && comment.audience !== 'DIRECT') {
    const already = new Set(addressed.map((p) => p.uri!));
    groups.push(
      ...(await followerGroups(deps, entry.ownerId, sender.actorId, comment.audience, already)),
    );
  }
  if (groups.every((g) => g.recipients.length === 0)) return undefined;
  const base = { username: sender.username, key: `comment:${commentId}`, groups };
  if (activity.type === 'DeleteComment') {
    return { ...base, kind: 'DeleteComment', commentId, to: addressing.to, cc: addressing.cc };
  }
  return {
    ...base,
    kind: 'Comment',
    commentId,
    content: comment.content,
    published: comment.createdAt.toISOString(),
    addressing,
  };
}

/**
 * LikeComment and UndoLikeComment (payload `{ commentCheerId, commentId }`): Like and
 * Undo(Like) of the comment's Note, to its author when remote and, unless the comment is
 * DIRECT, to those a Like of the entry would reach: a remote entry's author, a local entry's
 * owner's remote followers' servers (shared inboxes).
 */
export async function commentLikeJob(
  deps: CommentJobDeps,
  activity: ActivityRow,
  payload: PayloadOf<'LikeComment'>,
  sender: Sender,
): Promise<ConversationJob | undefined> {
  const { commentCheerId, commentId } = payload;
  if (!sender) return undefined;
  const comment = await deps.notes.comment(commentId);
  if (!comment || comment.deleted) return undefined;
  const author = comment.author;
  if (author.username !== null && !author.federates) return undefined; // its Note is not served
  const object =
    comment.uri ??
    (author.username === null
      ? undefined
      : commentNoteUri(deps.origin, author.username, comment.id).href);
  const entry = await entryOfComment(deps, comment);
  const authorUri = partyUri(deps.origin, author);
  if (!object || !entry || !authorUri) return undefined;
  const groups = [personally([author])];
  const cc: string[] = [];
  if (comment.audience !== 'DIRECT') {
    if (entry.remoteAuthor) {
      groups.push(personally([entry.remoteAuthor]));
      cc.push(entry.entryAuthor.uri);
    } else if (entry.ownerId !== null) {
      const followers = await followerGroups(
        deps,
        entry.ownerId,
        sender.actorId,
        'PUBLIC',
        new Set(),
      );
      const recipients = followers.flatMap((g) => g.recipients);
      groups.push({ recipients, preferShared: true, cc: [], names: [] });
      cc.push(`${entry.entryAuthor.uri}/followers`);
    }
  }
  if (groups.every((g) => g.recipients.length === 0)) return undefined;
  return {
    kind: activity.type === 'LikeComment' ? 'Like' : 'UndoLike',
    username: sender.username,
    key: `comment-cheer:${commentCheerId}`,
    likeId: commentLikeUri(deps.origin, sender.username, commentCheerId).href,
    object,
    to: [authorUri],
    cc: cc.filter((uri) => uri !== authorUri),
    groups,
  };
}

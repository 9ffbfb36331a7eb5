import type { ActorRepository } from '../actors/repository.ts';
import type { NotedEntry } from './remote.ts';
import type { RemoteThreadRepository, ThreadComment } from './remote-thread-repository.ts';
import { replyAddressees, type NoteAddressing } from './reply-audience.ts';

/**
 * A comment a remote Note id names: a local user's comment by its Note id
 * (/users/{username}/comments/{id}: the comment and its author's user), or a stored remote
 * reply by its Note's id.
 */
export type NotedComment = { commentId: number; authorUserId: number } | { commentUri: string };

/** What a remote reply answers: an entry's Note or a comment's. */
export type ReplyTarget = { entry: NotedEntry } | { comment: NotedComment };

/** A remote reply as the inbox read it (federation/inbox/reply.ts). */
export interface IncomingReply {
  noteUri: string;
  /** Its content reduced to plain text. */
  text: string;
  publishedAt: Date | undefined;
  inReplyTo: ReplyTarget;
  addressing: NoteAddressing;
}

/** A fediverse post that mentions local users and answers nothing here (create-mention.ts). */
export interface IncomingMention {
  /** The post's `url`, else its id: where the notification links to. */
  url: string;
  text: string;
  /** The local users its `Mention` tags name. */
  userIds: number[];
}

/** A local entry in the fediverse with its owner, as the inbox may act on it. */
export interface FederatedEntry {
  id: number;
  userId: number;
}

export interface RemoteThreadDeps {
  threads: RemoteThreadRepository;
  /** A federated entry of a federating user, by its Note id's parts, with its owner. */
  federatedEntry(entry: NotedEntry): FederatedEntry | undefined;
  /** The same by the entry's id (the entry a comment is under). */
  federatedEntryById(entryId: number): FederatedEntry | undefined;
  /** Whether the local user may see the local entry (src/visibility/policy.ts). */
  maySee(userId: number, entryId: number): boolean;
  /** Whether the actor is an accepted remote follower of the user. */
  isFollower(userId: number, actorUri: string): boolean;
  actors: Pick<ActorRepository, 'findRemoteByUri' | 'localActorId' | 'userIdOf' | 'saveRemote'>;
  /**
   * Blocks (src/blocks/). A block ends the follow, so a blocked actor is no follower any more;
   * asked as well so that nothing of theirs is taken even while a follow is being ended.
   */
  blocks: { isBlockedEitherWay(userId: number, actorId: number): boolean };
}

/**
 * Who among remote actors may act in a local entry's thread (src/conversation/remote.ts): an
 * accepted remote follower of the owner, neither having blocked the other, sees the entry; such
 * an actor reads (so answers and cheers) every comment under it but one whose local author
 * and they blocked one another, and a DIRECT one that neither is theirs nor names them. Only
 * comments under local entries in the fediverse, not deleted.
 */
export function createRemoteThreadRules(deps: RemoteThreadDeps) {
  const { threads, actors } = deps;
  type Entry = FederatedEntry;

  /** The actor's id when the actor may see the entry; else undefined. */
  function seenBy(actorUri: string, entry: Entry | undefined): number | undefined {
    if (!entry || !deps.isFollower(entry.userId, actorUri)) return undefined;
    const actor = actors.findRemoteByUri(actorUri);
    if (!actor || deps.blocks.isBlockedEitherWay(entry.userId, actor.id)) return undefined;
    return actor.id;
  }

  /** A comment on a local entry in the fediverse that a Note id names, with its entry. */
  function commentOf(noted: NotedComment): { comment: ThreadComment; entry: Entry } | undefined {
    const comment =
      'commentUri' in noted
        ? threads.commentByUri(noted.commentUri)
        : threads.commentById(noted.commentId);
    if (!comment || comment.beverageId === null) return undefined;
    if ('commentId' in noted && actors.userIdOf(comment.actorId) !== noted.authorUserId) {
      return undefined;
    }
    const entry = deps.federatedEntryById(comment.beverageId);
    return entry && { comment, entry };
  }

  /** Whether a remote actor who may see the entry may read the comment (answer, cheer it). */
  function mayRead(comment: ThreadComment, actorId: number): boolean {
    if (comment.actorId === actorId) return true;
    const author = actors.userIdOf(comment.actorId);
    if (author !== null && deps.blocks.isBlockedEitherWay(author, actorId)) return false;
    return comment.audience !== 'DIRECT' || threads.isAddressee(comment.id, actorId);
  }

  /** The thread a reply joins and its actor, when the actor may answer there. */
  function threadOf(actorUri: string, target: ReplyTarget) {
    if ('entry' in target) {
      const entry = deps.federatedEntry(target.entry);
      const actorId = seenBy(actorUri, entry);
      return actorId === undefined ? undefined : { entry: entry!, parent: null, actorId };
    }
    const found = commentOf(target.comment);
    const actorId = found && seenBy(actorUri, found.entry);
    if (!found || actorId === undefined || !mayRead(found.comment, actorId)) return undefined;
    return { entry: found.entry, parent: found.comment, actorId };
  }

  /**
   * The reply's addressees as actor ids (remote actors only when known), and whether one of
   * them is a local user who may see the entry.
   */
  function addresseesOf(addressing: NoteAddressing, entry: Entry) {
    const named = replyAddressees(addressing);
    const rows: { actorId: number; mentioned: boolean }[] = [];
    let localReader = false;
    for (const [userId, mentioned] of named.users) {
      rows.push({ actorId: actors.localActorId(userId), mentioned });
      localReader ||= userId === entry.userId || deps.maySee(userId, entry.id);
    }
    for (const [uri, mentioned] of named.actors) {
      const actor = actors.findRemoteByUri(uri);
      if (actor) rows.push({ actorId: actor.id, mentioned });
    }
    return { rows, localReader };
  }

  return { seenBy, commentOf, mayRead, threadOf, addresseesOf };
}

export type RemoteThreadRules = ReturnType<typeof createRemoteThreadRules>;

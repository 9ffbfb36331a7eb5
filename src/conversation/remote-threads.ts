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
  federatedEntry(entry: NotedEntry): Promise<FederatedEntry | undefined>;
  /** The same by the entry's id (the entry a comment is under). */
  federatedEntryById(entryId: number): Promise<FederatedEntry | undefined>;
  /** Whether the local user may see the local entry (src/visibility/policy.ts). */
  maySee(userId: number, entryId: number): Promise<boolean>;
  /** Whether the actor is an accepted remote follower of the user. */
  isFollower(userId: number, actorUri: string): Promise<boolean>;
  actors: Pick<ActorRepository, 'findRemoteByUri' | 'localActorId' | 'userIdOf' | 'saveRemote'>;
  /**
   * Blocks (src/blocks/). A block ends the follow, so a blocked actor is no follower any more;
   * asked as well so that nothing of theirs is taken even while a follow is being ended.
   */
  blocks: { isBlockedEitherWay(userId: number, actorId: number): Promise<boolean> };
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
  async function seenBy(actorUri: string, entry: Entry | undefined): Promise<number | undefined> {
    if (!entry || !(await deps.isFollower(entry.userId, actorUri))) return undefined;
    const actor = await actors.findRemoteByUri(actorUri);
    if (!actor || (await deps.blocks.isBlockedEitherWay(entry.userId, actor.id))) return undefined;
    return actor.id;
  }

  /** A comment on a local entry in the fediverse that a Note id names, with its entry. */
  async function commentOf(
    noted: NotedComment,
  ): Promise<{ comment: ThreadComment; entry: Entry } | undefined> {
    const comment =
      'commentUri' in noted
        ? await threads.commentByUri(noted.commentUri)
        : await threads.commentById(noted.commentId);
    if (!comment || comment.beverageId === null) return undefined;
    if ('commentId' in noted && (await actors.userIdOf(comment.actorId)) !== noted.authorUserId) {
      return undefined;
    }
    const entry = await deps.federatedEntryById(comment.beverageId);
    return entry && { comment, entry };
  }

  /** Whether a remote actor who may see the entry may read the comment (answer, cheer it). */
  async function mayRead(comment: ThreadComment, actorId: number): Promise<boolean> {
    if (comment.actorId === actorId) return true;
    const author = await actors.userIdOf(comment.actorId);
    if (author !== null && (await deps.blocks.isBlockedEitherWay(author, actorId))) return false;
    return comment.audience !== 'DIRECT' || (await threads.isAddressee(comment.id, actorId));
  }

  /** The thread a reply joins and its actor, when the actor may answer there. */
  async function threadOf(
    actorUri: string,
    target: ReplyTarget,
  ): Promise<{ entry: Entry; parent: ThreadComment | null; actorId: number } | undefined> {
    if ('entry' in target) {
      const entry = await deps.federatedEntry(target.entry);
      const actorId = await seenBy(actorUri, entry);
      return actorId === undefined ? undefined : { entry: entry!, parent: null, actorId };
    }
    const found = await commentOf(target.comment);
    const actorId = found && (await seenBy(actorUri, found.entry));
    if (!found || actorId === undefined || !(await mayRead(found.comment, actorId))) {
      return undefined;
    }
    return { entry: found.entry, parent: found.comment, actorId };
  }

  /**
   * The reply's addressees as actor ids (remote actors only when known), and whether one of
   * them is a local user who may see the entry.
   */
  async function addresseesOf(addressing: NoteAddressing, entry: Entry) {
    const named = replyAddressees(addressing);
    const rows: { actorId: number; mentioned: boolean }[] = [];
    let localReader = false;
    for (const [userId, mentioned] of named.users) {
      rows.push({ actorId: await actors.localActorId(userId), mentioned });
      localReader ||= userId === entry.userId || (await deps.maySee(userId, entry.id));
    }
    for (const [uri, mentioned] of named.actors) {
      const actor = await actors.findRemoteByUri(uri);
      if (actor) rows.push({ actorId: actor.id, mentioned });
    }
    return { rows, localReader };
  }

  return { seenBy, commentOf, mayRead, threadOf, addresseesOf };
}

export type RemoteThreadRules = ReturnType<typeof createRemoteThreadRules>;

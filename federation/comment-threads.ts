import type { ActorRow } from '../src/db/schema/index.ts';
import type { CommentForNote, NoteParty } from '../src/conversation/note-reads.ts';
import { localActorUri } from './comment-addressing.ts';

// No Fedify here: read at start by conversation-handoff.ts (src/context.ts).

/** What a comment's entry is read from: the entry, its owner or its remote author. */
export interface CommentThreadDeps {
  origin: string;
  users: {
    findById(id: number): Promise<{ username: string; activityPubEnabled: boolean } | undefined>;
  };
  actors: { findById(actorId: number): Promise<ActorRow | undefined> };
  remoteEntries: {
    findById(id: number): Promise<{ noteUri: string; actorId: number } | undefined>;
  };
  /** A local entry that is in the fediverse, with the generation of its Note id. */
  entries: {
    byId(id: number): Promise<{ id: number; userId: number; noteGeneration: number } | undefined>;
  };
}

/** The entry a comment is under, as its Note names it. */
export interface EntryOfComment {
  /** The entry's Note id. */
  entryNote: string;
  /** Its author: the local owner or the remote vault's actor. */
  entryAuthor: { uri: string; handle: string | null };
  /** The local owner's user id; null for a remote vault's entry. */
  ownerId: number | null;
  /** The remote vault's actor, as a recipient; null for a local entry. */
  remoteAuthor: NoteParty | null;
}

/**
 * The entry of a comment when its Note has somewhere to be: a local entry in the fediverse
 * whose owner federates (at its Note id's current generation), or a remote vault's entry whose
 * actor is known. Undefined otherwise.
 */
export async function entryOfComment(
  deps: CommentThreadDeps,
  comment: Pick<CommentForNote, 'beverageId' | 'remoteEntryId'>,
): Promise<EntryOfComment | undefined> {
  if (comment.remoteEntryId !== null) {
    const entry = await deps.remoteEntries.findById(comment.remoteEntryId);
    const author = entry && (await deps.actors.findById(entry.actorId));
    if (!entry || !author?.uri) return undefined;
    return {
      entryNote: entry.noteUri,
      entryAuthor: { uri: author.uri, handle: author.handle },
      ownerId: null,
      remoteAuthor: {
        actorId: author.id,
        username: null,
        federates: true,
        uri: author.uri,
        handle: author.handle,
        inboxUrl: author.inboxUrl,
        sharedInboxUrl: author.sharedInboxUrl,
      },
    };
  }
  const entry =
    comment.beverageId === null ? undefined : await deps.entries.byId(comment.beverageId);
  const owner = entry && (await deps.users.findById(entry.userId));
  if (!entry || !owner?.activityPubEnabled) return undefined;
  const ownerUri = localActorUri(deps.origin, owner.username);
  const id = entry.noteGeneration > 0 ? `${entry.id}-${entry.noteGeneration}` : String(entry.id);
  return {
    entryNote: `${ownerUri}/entries/${id}`,
    entryAuthor: { uri: ownerUri, handle: `${owner.username}@${new URL(deps.origin).host}` },
    ownerId: entry.userId,
    remoteAuthor: null,
  };
}

import type { Federation, RequestContext } from '@fedify/fedify';
import type { ActorRow } from '../src/db/schema/index.ts';
import type { ConversationRepository } from '../src/conversation/repository.ts';
import type { UserRepository } from '../src/users/repository.ts';
import { commentNote } from './conversation-delivery.ts';
import type { EntryAudience } from './entry-audience.ts';
import { signedByFollower, type SignedLookups } from './note-dispatcher.ts';
import { objectNotFound, ownObjectRequest } from './own-object-request.ts';

const COMMENT_PATH = /^\/users\/([^/]+)\/comments\/([1-9][0-9]{0,14})$/;

export interface CommentNoteDeps {
  origin: string;
  users: Pick<UserRepository, 'findFederatedByUsername' | 'findById'>;
  comments: Pick<ConversationRepository, 'commentRow'>;
  remoteEntries: { findById(id: number): { noteUri: string; actorId: number } | undefined };
  actors: {
    findById(actorId: number): ActorRow | undefined;
    userIdOf(actorId: number): number | null;
  };
  /** A local entry in the fediverse, with the generation of its Note id, and its audience. */
  entries: {
    byId(id: number): { id: number; userId: number; noteGeneration: number } | undefined;
  };
  audience: Pick<EntryAudience, 'hasFollowerOn'>;
  lookups: SignedLookups;
}

/** The Note's entry, its author (mentioned), the addressing, and who may read it. */
function threadOf(
  deps: CommentNoteDeps,
  comment: { beverageId: number | null; remoteEntryId: number | null },
) {
  if (comment.remoteEntryId !== null) {
    const entry = deps.remoteEntries.findById(comment.remoteEntryId);
    const author = entry && deps.actors.findById(entry.actorId);
    if (!entry || !author?.uri) return undefined;
    const uri = author.uri;
    return {
      noteUri: entry.noteUri,
      addressing: { to: uri, cc: null, mention: { uri, handle: author.handle } },
      mayRead: async (ctx: RequestContext<void>) => {
        const reader = await signer(ctx, deps.lookups);
        return reader !== null && (reader === uri || isOwnOrigin(deps, reader));
      },
    };
  }
  const entry = comment.beverageId === null ? undefined : deps.entries.byId(comment.beverageId);
  const owner = entry && deps.users.findById(entry.userId);
  if (!entry || !owner?.activityPubEnabled) return undefined;
  const ownerUri = `${deps.origin}/users/${encodeURIComponent(owner.username)}`;
  const id = entry.noteGeneration > 0 ? `${entry.id}-${entry.noteGeneration}` : String(entry.id);
  return {
    noteUri: `${ownerUri}/entries/${id}`,
    addressing: {
      to: `${ownerUri}/followers`,
      cc: ownerUri,
      mention: { uri: ownerUri, handle: `${owner.username}@${new URL(deps.origin).host}` },
    },
    // The entry Note's rule: any actor of a server that holds a follower of the owner.
    mayRead: (ctx: RequestContext<void>) => signedByFollower(ctx, deps, entry.userId),
  };
}

function isOwnOrigin(deps: CommentNoteDeps, actorUri: string): boolean {
  return new URL(actorUri).origin === new URL(deps.origin).origin;
}

/** The owner of the key that signed the request (fetched signed as the instance actor). */
async function signer(ctx: RequestContext<void>, lookups: SignedLookups): Promise<string | null> {
  if (!ctx.request.headers.has('signature') && !ctx.request.headers.has('signature-input')) {
    return null;
  }
  const documentLoader = await lookups(ctx);
  const key = await ctx.getSignedKey({ documentLoader }).catch(() => null);
  if (!key?.ownerId) return null;
  const owner = await ctx.getSignedKeyOwner({ documentLoader }).catch(() => null);
  return owner?.id?.href ?? null;
}

/**
 * The Note of a local user's comment at /users/{username}/comments/{id} (the id its Create
 * carried), for those it was sent to: on a remote vault's entry, a GET signed by the entry's
 * author; on a local entry, one signed by any actor of a server that holds an accepted
 * follower of its owner, as for the entry's Note (signedByFollower); by this server itself
 * either way. Everyone else, and a comment that is gone or
 * whose entry left the fediverse, gets 404, as for a comment that never existed. Answered before
 * Fedify routes the request (index.ts), as Fedify allows one object dispatcher per class and the
 * Note's is the entries'. Undefined for every other request.
 */
export async function commentNoteResponse(
  federation: Federation<void>,
  deps: CommentNoteDeps,
  request: Request,
): Promise<Response | undefined> {
  const asked = ownObjectRequest(request, deps.origin, COMMENT_PATH);
  if (asked === undefined) return undefined;
  if (asked === 'notFound') return objectNotFound();
  const { match, username } = asked;
  const user = deps.users.findFederatedByUsername(username);
  const comment = deps.comments.commentRow(Number(match[2]));
  if (!user || !comment || deps.actors.userIdOf(comment.actorId) !== user.id)
    return objectNotFound();
  const thread = threadOf(deps, comment);
  if (!thread) return objectNotFound();
  const ctx = federation.createContext(request, undefined);
  if (!(await thread.mayRead(ctx))) return objectNotFound();
  const note = commentNote(
    deps.origin,
    {
      username: user.username,
      commentId: comment.id,
      noteUri: thread.noteUri,
      content: comment.content,
      published: comment.createdAt.toISOString(),
    },
    thread.addressing,
  );
  const body = request.method === 'HEAD' ? null : JSON.stringify(await note.toJsonLd(ctx));
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' },
  });
}

import type { Federation, RequestContext } from '@fedify/fedify';
import type { NoteReads } from '../src/conversation/note-reads.ts';
import type { UserRepository } from '../src/users/repository.ts';
import { commentAddressing, partyUri } from './comment-addressing.ts';
import { entryOfComment, type CommentThreadDeps } from './comment-threads.ts';
import { commentNote } from './conversation-delivery.ts';
import type { EntryAudience } from './entry-audience.ts';
import { signedByFollower, type SignedLookups } from './note-dispatcher.ts';
import { objectNotFound, ownObjectRequest } from './own-object-request.ts';

const COMMENT_PATH = /^\/users\/([^/]+)\/comments\/([1-9][0-9]{0,14})$/;

export interface CommentNoteDeps extends CommentThreadDeps {
  users: CommentThreadDeps['users'] & Pick<UserRepository, 'findFederatedByUsername'>;
  notes: Pick<NoteReads, 'comment' | 'addressees'>;
  audience: Pick<EntryAudience, 'hasFollowerOn'>;
  lookups: SignedLookups;
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
 * Who may read a comment's Note: a DIRECT one only those it is addressed to, by a GET signed by
 * any actor of their servers; any other, also as the entry's Note is read: on a remote vault's
 * entry its author, on a local entry any actor of a server that holds an accepted follower of
 * its owner (signedByFollower) and, for an AUTHOR_FOLLOWERS one (the author's followers only),
 * of its author as well; this server itself always.
 */
async function mayRead(
  ctx: RequestContext<void>,
  deps: CommentNoteDeps,
  facts: {
    direct: boolean;
    ownerId: number | null;
    /** The author's user id when only their followers read it (AUTHOR_FOLLOWERS); else null. */
    authorFollowersOf: number | null;
    entryAuthor: string;
    named: string[];
  },
): Promise<boolean> {
  if (!facts.direct && facts.ownerId !== null) {
    const byFollower = async (userId: number) => signedByFollower(ctx, deps, userId);
    if (
      (await byFollower(facts.ownerId)) &&
      (facts.authorFollowersOf === null || (await byFollower(facts.authorFollowersOf)))
    ) {
      return true;
    }
  }
  const reader = await signer(ctx, deps.lookups);
  if (reader === null) return false;
  if (isOwnOrigin(deps, reader)) return true;
  if (!facts.direct && facts.ownerId === null && reader === facts.entryAuthor) return true;
  const origin = new URL(reader).origin;
  return facts.named.some((uri) => !isOwnOrigin(deps, uri) && new URL(uri).origin === origin);
}

/**
 * The Note of a local user's comment at /users/{username}/comments/{id} (the id its Create
 * carried), addressed as it was sent (commentAddressing), for those it was sent to (mayRead).
 * Everyone else, and a comment that is gone (or deleted and kept for its answers) or whose
 * entry left the fediverse, gets 404, as for a comment that never existed. Answered before
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
  const user = await deps.users.findFederatedByUsername(username);
  const comment = await deps.notes.comment(Number(match[2]));
  if (!user || !comment || comment.deleted || comment.author.username !== user.username) {
    return objectNotFound();
  }
  const entry = await entryOfComment(deps, comment);
  if (!entry) return objectNotFound();
  const addressees = await deps.notes.addressees(comment.id);
  const addressing = commentAddressing({
    origin: deps.origin,
    entryNote: entry.entryNote,
    entryAuthor: entry.entryAuthor,
    localEntry: entry.ownerId !== null,
    comment,
    addressees,
  });
  const ctx = federation.createContext(request, undefined);
  const facts = {
    direct: comment.audience === 'DIRECT',
    ownerId: entry.ownerId,
    authorFollowersOf: comment.audience === 'AUTHOR_FOLLOWERS' ? user.id : null,
    entryAuthor: entry.entryAuthor.uri,
    named: [
      ...addressees.flatMap((a) => partyUri(deps.origin, a) ?? []),
      ...addressing.links.map((m) => m.href),
    ],
  };
  if (!(await mayRead(ctx, deps, facts))) return objectNotFound();
  const note = commentNote(
    deps.origin,
    {
      username: user.username,
      commentId: comment.id,
      content: comment.content,
      published: comment.createdAt.toISOString(),
    },
    addressing,
  );
  const body = request.method === 'HEAD' ? null : JSON.stringify(await note.toJsonLd(ctx));
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' },
  });
}

import { Collection, CollectionPage } from '@fedify/vocab';
import type { Federation } from '@fedify/fedify';
import type { ConversationRepository } from '../src/conversation/repository.ts';
import type { UserRepository } from '../src/users/repository.ts';
import type { EntryAudience } from './entry-audience.ts';
import type { FederatedEntries } from './entry-rows.ts';
import { noteUrl, repliesUrl } from './note.ts';
import { signedByFollower, type SignedLookups } from './note-dispatcher.ts';
import { INSTANCE_ACTOR, noteIdParts } from './paths.ts';
import { objectNotFound, ownObjectRequest } from './own-object-request.ts';

const REPLIES_PATH = /^\/users\/([^/]+)\/entries\/([^/]+)\/replies$/;

export interface EntryRepliesDeps {
  origin: string;
  users: Pick<UserRepository, 'findFederatedByUsername'>;
  entries: Pick<FederatedEntries, 'byId'>;
  comments: Pick<ConversationRepository, 'comments' | 'commentRow'>;
  audience: Pick<EntryAudience, 'hasFollowerOn'>;
  lookups: SignedLookups;
}

/**
 * The Note ids of an entry's comments, oldest first, as its owner sees the thread (the
 * conversation repository's rule: no comment of someone the owner blocked or who blocked the
 * owner): a local user's at /users/{username}/comments/{id} (only a federated user's, as only
 * those are served), a remote account's reply at the id it came with. Neither a private
 * (DIRECT) reply nor a deleted comment is listed: a follower's server may read neither.
 */
async function replyIds(deps: EntryRepliesDeps, entryId: number, ownerId: number): Promise<URL[]> {
  const ids: URL[] = [];
  for (const comment of await deps.comments.comments({ kind: 'local', id: entryId }, ownerId)) {
    if (comment.audience === 'DIRECT' || comment.deleted) continue;
    const { username } = comment.author;
    if (username !== null) {
      if (!(await deps.users.findFederatedByUsername(username))) continue;
      ids.push(
        new URL(`/users/${encodeURIComponent(username)}/comments/${comment.id}`, deps.origin),
      );
      continue;
    }
    const uri = (await deps.comments.commentRow(comment.id))?.uri;
    if (uri) ids.push(new URL(uri));
  }
  return ids;
}

/**
 * An entry Note's `replies` collection at {note id}/replies: a Collection whose first page
 * holds the ids of its comments (replyIds), the shape of Mastodon's, from which Mastodon and
 * GoToSocial fetch each reply. Served to those who may read the Note itself (signedByFollower:
 * any actor of a server that holds a follower of the owner, or this server); everyone else, and
 * an entry that is not in the fediverse or a Note id of another generation, gets 404. Answered
 * before Fedify routes the request (index.ts). Undefined for every other request.
 */
export async function entryRepliesResponse(
  federation: Federation<void>,
  deps: EntryRepliesDeps,
  request: Request,
): Promise<Response | undefined> {
  const asked = ownObjectRequest(request, deps.origin, REPLIES_PATH);
  if (asked === undefined) return undefined;
  if (asked === 'notFound') return objectNotFound();
  const { match, username } = asked;
  const parts = noteIdParts(match[2]!);
  const user =
    username === INSTANCE_ACTOR ? undefined : await deps.users.findFederatedByUsername(username);
  const entry = parts && (await deps.entries.byId(parts.entryId));
  if (!user || !entry || entry.userId !== user.id || entry.noteGeneration !== parts.generation) {
    return objectNotFound();
  }
  const ctx = federation.createContext(request, undefined);
  if (!(await signedByFollower(ctx, deps, user.id))) return objectNotFound();
  const id = repliesUrl(noteUrl(deps.origin, user.username, entry.id, entry.noteGeneration));
  const items = await replyIds(deps, entry.id, user.id);
  const collection = new Collection({
    id,
    totalItems: items.length,
    first: new CollectionPage({ partOf: id, items }),
  });
  const body = request.method === 'HEAD' ? null : JSON.stringify(await collection.toJsonLd(ctx));
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' },
  });
}

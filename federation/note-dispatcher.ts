import type { Federation, RequestContext } from '@fedify/fedify';
import type { UserRepository } from '../src/users/repository.ts';
import type { EntryAudience } from './entry-audience.ts';
import type { EntryNotes } from './entry-notes.ts';
import type { FederatedEntries } from './entry-rows.ts';
import { INSTANCE_ACTOR } from './instance-actor.ts';
import { entryNote, noteTombstone, VaultNote } from './note.ts';
import { FEDERATION_PATHS, localNoteOf, noteIdParts } from './paths.ts';

/** An ActivityPub request (a browser's falls through to the web client, as for the Note). */
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json)/i;

export interface NoteDispatcherDeps {
  origin: string;
  users: Pick<UserRepository, 'findFederatedByUsername'>;
  entries: Pick<FederatedEntries, 'byId'>;
  audience: Pick<EntryAudience, 'isFollower'>;
  notes: EntryNotes;
}

/**
 * Whether a request is signed by a current follower of the user, or by an actor of this server
 * (the instance actor, the user). A signature that does not verify is no signature. The
 * requester's key and its owner are fetched with GETs signed as the instance actor: servers
 * that require signed fetches (GoToSocial, Mastodon's secure mode) answer unsigned ones 401,
 * which would leave every follower of theirs without the Note.
 */
export async function signedByFollower(
  ctx: RequestContext<void>,
  deps: { origin: string; audience: Pick<EntryAudience, 'isFollower'> },
  userId: number,
): Promise<boolean> {
  if (!ctx.request.headers.has('signature') && !ctx.request.headers.has('signature-input')) {
    return false;
  }
  const documentLoader = await ctx.getDocumentLoader({ identifier: INSTANCE_ACTOR });
  const key = await ctx.getSignedKey({ documentLoader }).catch(() => null);
  if (!key?.ownerId) return false;
  if (key.ownerId.origin === new URL(deps.origin).origin) return true;
  const owner = await ctx.getSignedKeyOwner({ documentLoader }).catch(() => null);
  return owner?.id != null && deps.audience.isFollower(userId, owner.id.href);
}

/**
 * A federated user's federated entry named by a Note id's parts, with the generation asked for
 * (an entry that came back after leaving the fediverse has a newer one: note-generations.ts).
 */
function findEntry(
  deps: NoteDispatcherDeps,
  identifier: string,
  parts: { entryId: number; generation: number } | undefined,
) {
  if (identifier === INSTANCE_ACTOR || !parts) return undefined;
  const user = deps.users.findFederatedByUsername(identifier);
  if (!user) return undefined;
  const entry = deps.entries.byId(parts.entryId);
  if (!entry || entry.userId !== user.id) return undefined;
  return { user, entry, generation: parts.generation };
}

/**
 * The Note of an entry at /users/{username}/entries/{id} (or {id}-{generation}), for the
 * servers it was sent to: only a request signed by a current follower of the author (or by this
 * server itself) gets it; everyone else, signed or not, gets 404 as for an entry that does not
 * exist, so the entry's existence is not revealed. A deleted entry, one of a user who is not
 * federated, and an id of a generation the entry does not have (yet) are 404; an id of an
 * earlier generation is 410 to those same readers (goneNoteResponse).
 */
export function registerNoteDispatcher(federation: Federation<void>, deps: NoteDispatcherDeps) {
  const { origin, audience, notes } = deps;

  function find(identifier: string, id: string) {
    const found = findEntry(deps, identifier, noteIdParts(id));
    return found && found.generation === found.entry.noteGeneration ? found : undefined;
  }

  const mayRead = (ctx: RequestContext<void>, userId: number) =>
    signedByFollower(ctx, { origin, audience }, userId);

  federation
    .setObjectDispatcher(VaultNote, FEDERATION_PATHS.entryNote, async (ctx, values) => {
      const found = find(values.identifier, values.id);
      // Not the requester's to see: the same 404 as a missing entry (never 401 or 403).
      if (!found || !(await mayRead(ctx, found.user.id))) return null;
      const { user, entry } = found;
      return entryNote(await notes.input(entry, user));
    })
    // Checked again after the dispatcher, with the same answer: Fedify's own guard.
    .authorize(async (ctx, values) => {
      const found = find(values.identifier, values.id);
      return found !== undefined && (await mayRead(ctx, found.user.id));
    });
}

/**
 * An earlier generation's Note id of an entry that is in the fediverse again: 410 Gone with
 * its Tombstone, for a GET signed by a current follower of the author (or by this server), as
 * the Note itself would be. Undefined for every other request, which Fedify then answers (the
 * Note, or 404). Fedify 2.3.6 answers 410 only for an actor dispatcher that returns a
 * Tombstone, not for an object dispatcher, so this runs before it (index.ts).
 */
export async function goneNoteResponse(
  federation: Federation<void>,
  deps: NoteDispatcherDeps,
  request: Request,
): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (!ACTIVITY_JSON.test(request.headers.get('accept') ?? '')) return undefined;
  const note = localNoteOf(deps.origin, request.url);
  if (!note) return undefined;
  const found = findEntry(deps, note.username, note);
  if (!found || found.generation >= found.entry.noteGeneration) return undefined;
  const ctx = federation.createContext(request, undefined);
  if (!(await signedByFollower(ctx, deps, found.user.id))) return undefined;
  const tombstone = noteTombstone({
    origin: deps.origin,
    username: found.user.username,
    entryId: found.entry.id,
    generation: found.generation,
  });
  const body = request.method === 'HEAD' ? null : JSON.stringify(await tombstone.toJsonLd(ctx));
  return new Response(body, {
    status: 410,
    headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' },
  });
}

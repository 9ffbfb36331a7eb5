import {
  kvCache,
  type DocumentLoader,
  type Federation,
  type KvStore,
  type RequestContext,
} from '@fedify/fedify';
import type { UserRepository } from '../src/users/repository.ts';
import type { EntryAudience } from './entry-audience.ts';
import type { EntryNotes } from './entry-notes.ts';
import type { FederatedEntries } from './entry-rows.ts';
import { entryNote, noteTombstone, VaultNote } from './note.ts';
import { FEDERATION_PATHS, INSTANCE_ACTOR, localNoteOf, noteIdParts } from './paths.ts';

/** An ActivityPub request (a browser's falls through to the web client, as for the Note). */
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json)/i;

export interface NoteDispatcherDeps {
  origin: string;
  users: Pick<UserRepository, 'findFederatedByUsername'>;
  entries: Pick<FederatedEntries, 'byId' | 'generations'>;
  audience: Pick<EntryAudience, 'hasFollowerOn'>;
  notes: EntryNotes;
  lookups: SignedLookups;
}

/** The document loader that fetches a requester's key and its owner (instanceActorLookups). */
export type SignedLookups = (ctx: RequestContext<void>) => Promise<DocumentLoader>;

/**
 * Fetches signed as the instance actor, cached in the federation KV store under Fedify's own
 * prefix for remote documents (5 minutes, as Fedify caches the documents it fetches unsigned):
 * a follower's server reading many Notes costs its actor one fetch, not one per Note.
 */
export function instanceActorLookups(kv: KvStore): SignedLookups {
  return async (ctx) =>
    kvCache({ loader: await ctx.getDocumentLoader({ identifier: INSTANCE_ACTOR }), kv });
}

/**
 * Whether a request is signed by an actor of a server that holds a current follower of the user
 * (any of its actors: Mastodon fetches a missing Note signed by its instance actor, which follows
 * nobody), or by an actor of this server (the instance actor, the user). The server is the
 * origin of the key owner's id, checked against the user's accepted follows (`hasFollowerOn`). A signature that does not verify is no signature. The
 * requester's key and its owner are fetched with GETs signed as the instance actor: servers
 * that require signed fetches (GoToSocial, Mastodon's secure mode) answer unsigned ones 401,
 * which would leave every follower of theirs without the Note.
 */
export async function signedByFollower(
  ctx: RequestContext<void>,
  deps: { origin: string; audience: Pick<EntryAudience, 'hasFollowerOn'>; lookups: SignedLookups },
  userId: number,
): Promise<boolean> {
  if (!ctx.request.headers.has('signature') && !ctx.request.headers.has('signature-input')) {
    return false;
  }
  const documentLoader = await deps.lookups(ctx);
  const key = await ctx.getSignedKey({ documentLoader }).catch(() => null);
  if (!key?.ownerId) return false;
  if (key.ownerId.origin === new URL(deps.origin).origin) return true;
  const owner = await ctx.getSignedKeyOwner({ documentLoader }).catch(() => null);
  // Fedify returns an owner only from a document of the owner's own origin that lists the key,
  // so no server can sign in another server's name.
  return owner?.id != null && (await deps.audience.hasFollowerOn(userId, owner.id.origin));
}

/**
 * A federated user's federated entry named by a Note id's parts, with the generation asked for
 * (an entry that came back after leaving the fediverse has a newer one: note-generations.ts).
 */
async function findEntry(
  deps: NoteDispatcherDeps,
  identifier: string,
  parts: { entryId: number; generation: number } | undefined,
) {
  if (identifier === INSTANCE_ACTOR || !parts) return undefined;
  const user = await deps.users.findFederatedByUsername(identifier);
  if (!user) return undefined;
  const entry = await deps.entries.byId(parts.entryId);
  if (!entry || entry.userId !== user.id) return undefined;
  return { user, entry, generation: parts.generation };
}

/**
 * The Note of an entry at /users/{username}/entries/{id} (or {id}-{generation}), for the
 * servers it was sent to: only a request signed by an actor of a server that holds a current
 * follower of the author (or by this server itself) gets it; everyone else, signed or not, gets 404 as for an entry that does not
 * exist, so the entry's existence is not revealed. An id of a user who is not federated, and one
 * of a generation the entry does not have (yet), are 404; a withdrawn Note's id (the entry
 * deleted or out of the fediverse, or an earlier generation) is 410 to those same readers
 * (goneNoteResponse).
 */
export function registerNoteDispatcher(federation: Federation<void>, deps: NoteDispatcherDeps) {
  const { origin, audience, notes, lookups } = deps;

  async function find(identifier: string, id: string) {
    const found = await findEntry(deps, identifier, noteIdParts(id));
    return found && found.generation === found.entry.noteGeneration ? found : undefined;
  }

  const mayRead = (ctx: RequestContext<void>, userId: number) =>
    signedByFollower(ctx, { origin, audience, lookups }, userId);

  federation
    .setObjectDispatcher(VaultNote, FEDERATION_PATHS.entryNote, async (ctx, values) => {
      const found = await find(values.identifier, values.id);
      // Not the requester's to see: the same 404 as a missing entry (never 401 or 403).
      if (!found || !(await mayRead(ctx, found.user.id))) return null;
      const { user, entry } = found;
      return entryNote(await notes.input(entry, user));
    })
    // Checked again after the dispatcher, with the same answer: Fedify's own guard.
    .authorize(async (ctx, values) => {
      const found = await find(values.identifier, values.id);
      return found !== undefined && (await mayRead(ctx, found.user.id));
    });
}

/**
 * Whose Note the id named and when it was withdrawn, if it is gone: an earlier generation of an
 * entry that is in the fediverse again, or a Note whose Delete was sent (the entry was deleted,
 * made PRIVATE or kept out of the fediverse: note-generations.ts records it). A Delete is sent
 * only for a Note that was in the fediverse, so an entry that never was stays 404, as does an
 * id that never existed.
 */
async function goneNote(
  deps: NoteDispatcherDeps,
  note: { username: string; entryId: number; generation: number },
): Promise<{ userId: number; deletedAt: Date | undefined } | undefined> {
  if (note.username === INSTANCE_ACTOR) return undefined;
  const user = await deps.users.findFederatedByUsername(note.username);
  if (!user) return undefined;
  const withdrawal = await deps.entries.generations.withdrawal(note.entryId, note.generation);
  const entry = await deps.entries.byId(note.entryId);
  if (entry) {
    // The current generation is the Note itself; a later one does not exist (yet).
    if (entry.userId !== user.id || note.generation >= entry.noteGeneration) return undefined;
    return { userId: user.id, deletedAt: withdrawal?.deletedAt };
  }
  if (withdrawal?.username !== user.username) return undefined;
  return { userId: user.id, deletedAt: withdrawal.deletedAt };
}

/**
 * A withdrawn Note's id: 410 Gone with its Tombstone (with the time of its Delete when it was
 * recorded), for a GET signed by an actor of a follower's server (or by this server), as the
 * Note itself would be. Undefined for every other request, which Fedify then answers (the Note,
 * or 404). Fedify 2.3.6 answers 410 only for an actor dispatcher that returns a Tombstone, not
 * for an object dispatcher, so this runs before it (index.ts).
 */
export async function goneNoteResponse(
  federation: Federation<void>,
  deps: NoteDispatcherDeps,
  request: Request,
): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (!ACTIVITY_JSON.test(request.headers.get('accept') ?? '')) return undefined;
  const note = localNoteOf(deps.origin, request.url);
  const gone = note && (await goneNote(deps, note));
  if (!note || !gone) return undefined;
  const ctx = federation.createContext(request, undefined);
  if (!(await signedByFollower(ctx, deps, gone.userId))) return undefined;
  const tombstone = noteTombstone({
    origin: deps.origin,
    username: note.username,
    entryId: note.entryId,
    generation: note.generation,
    deletedAt: gone.deletedAt,
  });
  const body = request.method === 'HEAD' ? null : JSON.stringify(await tombstone.toJsonLd(ctx));
  return new Response(body, {
    status: 410,
    headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' },
  });
}

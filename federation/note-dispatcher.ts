import type { Federation, RequestContext } from '@fedify/fedify';
import type { UserRepository } from '../src/users/repository.ts';
import type { EntryAudience } from './entry-audience.ts';
import type { EntryNotes } from './entry-notes.ts';
import type { FederatedEntries } from './entry-rows.ts';
import { INSTANCE_ACTOR } from './instance-actor.ts';
import { entryNote, VaultNote } from './note.ts';
import { FEDERATION_PATHS } from './paths.ts';

const ENTRY_ID = /^[1-9][0-9]{0,14}$/;

export interface NoteDispatcherDeps {
  origin: string;
  users: Pick<UserRepository, 'findFederatedByUsername'>;
  entries: Pick<FederatedEntries, 'byId'>;
  audience: Pick<EntryAudience, 'isFollower'>;
  notes: EntryNotes;
}

/**
 * Whether a request is signed by a current follower of the user, or by an actor of this server
 * (the instance actor, the user). A signature that does not verify is no signature.
 */
export async function signedByFollower(
  ctx: RequestContext<void>,
  deps: { origin: string; audience: Pick<EntryAudience, 'isFollower'> },
  userId: number,
): Promise<boolean> {
  const key = await ctx.getSignedKey().catch(() => null);
  if (!key?.ownerId) return false;
  if (key.ownerId.origin === new URL(deps.origin).origin) return true;
  const owner = await ctx.getSignedKeyOwner().catch(() => null);
  return owner?.id != null && deps.audience.isFollower(userId, owner.id.href);
}

/**
 * The Note of an entry at /users/{username}/entries/{id}, for the servers it was sent to: only
 * a request signed by a current follower of the author (or by this server itself) gets it;
 * everyone else, signed or not, gets 404 as for an entry that does not exist, so the entry's
 * existence is not revealed. A deleted entry, or one of a user who is not federated, is 404.
 */
export function registerNoteDispatcher(federation: Federation<void>, deps: NoteDispatcherDeps) {
  const { origin, users, entries, audience, notes } = deps;

  function find(identifier: string, id: string) {
    if (identifier === INSTANCE_ACTOR || !ENTRY_ID.test(id)) return undefined;
    const user = users.findFederatedByUsername(identifier);
    if (!user) return undefined;
    const entry = entries.byId(Number(id));
    return entry && entry.userId === user.id ? { user, entry } : undefined;
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

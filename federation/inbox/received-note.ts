import { getUserAgent, type InboxContext } from '@fedify/fedify';
import type { Activity } from '@fedify/vocab';
import { getLogger } from '@logtape/logtape';
import packageJson from '../../package.json' with { type: 'json' };
import type { IncomingEntry } from '../../src/remote-entries/service.ts';
import type { FederationDeps } from '../deps.ts';
import { INSTANCE_ACTOR } from '../paths.ts';
import { readVaultNote, readVaultNoteFromActivity, type RemoteEntry } from '../note-reader.ts';
import { OUTBOUND_LIMITS, userDocumentLoader } from '../outbound.ts';
import { remoteEntryBasicsOf } from '../../contract/entry-basics.ts';
import { fetchPhoto } from './fetch-photo.ts';

export const logger = getLogger(['vault', 'federation', 'inbox']);

/** A received Note that passed the anti-spoofing checks, and who sent it. */
export interface ReceivedNote {
  /** The activity's actor: the owner of the key Fedify verified, and the Note's author. */
  actorUri: string;
  note: RemoteEntry;
}

/**
 * The vault entry a verified Create or Update carries, or undefined (logged) when there is none
 * or it fails a check. Fedify has verified the signature, and that its key belongs to the
 * activity's `actor`; on top of that:
 *
 * - the Note must be the actor's own: `attributedTo` is the actor, and its `id` and
 *   `attributedTo` are on the actor's origin (the reader already wants both on one origin);
 * - an object embedded from another origin is dropped unread: it could only be re-fetched from
 *   its own origin, where it would be another actor's Note, which an author's Create never
 *   carries;
 * - an object given by its id alone (on the actor's origin) is fetched with the guarded
 *   document loader (signed as the recipient, private addresses refused, 10 s, 1 MB);
 * - the Note must carry the vault extension (readVaultNote), else it is not an entry.
 */
export async function receivedNote(
  ctx: InboxContext<void>,
  activity: Activity,
  deps: FederationDeps,
): Promise<ReceivedNote | undefined> {
  const actor = activity.actorIds.length === 1 ? activity.actorId : null;
  if (!actor) return ignore(activity, 'it has no single actor');
  const json = (await activity.toJsonLd()) as Record<string, unknown>;
  const object = json.object;
  let note: RemoteEntry | undefined;
  if (typeof object === 'string') {
    if (!sameOrigin(object, actor)) return ignore(activity, 'its object is on another origin');
    note = await fetchNote(ctx, object, deps);
  } else {
    const id = isRecord(object) ? object.id : undefined;
    if (typeof id !== 'string' || !sameOrigin(id, actor)) {
      return ignore(activity, 'its object is embedded from another origin');
    }
    note = readVaultNoteFromActivity(json);
  }
  if (!note) return ignore(activity, 'its object is not a vault entry', 'debug');
  if (note.attributedTo !== actor.href || !sameOrigin(note.noteId, actor)) {
    return ignore(activity, 'its Note is not attributed to its actor');
  }
  return { actorUri: actor.href, note };
}

/** The Note at `url`, fetched from its origin as the recipient (or the instance actor). */
async function fetchNote(
  ctx: InboxContext<void>,
  url: string,
  deps: FederationDeps,
): Promise<RemoteEntry | undefined> {
  const identity = ctx.recipient ?? INSTANCE_ACTOR;
  try {
    const load = await userDocumentLoader(ctx, identity, {
      allowPrivateAddress: deps.allowPrivateAddress,
      blocks: deps.blocks,
      userAgent: userAgent(deps),
      ...OUTBOUND_LIMITS,
    });
    const { document } = await load(url);
    const note = readVaultNote(document);
    return note?.noteId === url ? note : undefined;
  } catch (error) {
    logger.info('Could not fetch the Note {url}: {error}', { url, error: String(error) });
    return undefined;
  }
}

/** The entry as the remote entries' service takes it. */
export function incomingEntry(note: RemoteEntry): IncomingEntry {
  return {
    noteUri: note.noteId,
    ...remoteEntryBasicsOf(note),
    tasting: note.tasting ?? null,
    publishedAt: note.published,
    updatedAt: note.updated ?? note.published,
    photoUrl: note.photo?.url ?? null,
  };
}

/** Downloads a Note's photo with the bounds and address guard of fetch-photo.ts. */
export function downloadPhoto(url: string, deps: FederationDeps): Promise<Uint8Array | undefined> {
  return fetchPhoto(url, {
    allowPrivateAddress: deps.allowPrivateAddress,
    userAgent: userAgent(deps),
  });
}

export function sameOrigin(url: string, actor: URL): boolean {
  try {
    return new URL(url).origin === actor.origin;
  } catch {
    return false;
  }
}

function userAgent(deps: FederationDeps): string {
  return getUserAgent({ software: `vault/${packageJson.version}`, url: deps.config.origin });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Logs why an activity changes nothing: at info for a failed check, debug for the ordinary. */
export function ignore(
  activity: Activity,
  reason: string,
  level: 'info' | 'debug' = 'info',
): undefined {
  logger[level]('Ignored {type} {id} from {actor}: {reason}', {
    type: activity.constructor.name,
    id: activity.id?.href ?? null,
    actor: activity.actorId?.href ?? null,
    reason,
  });
  return undefined;
}

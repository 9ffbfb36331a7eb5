import type { Context, DocumentLoader } from '@fedify/fedify';
import { isActor } from '@fedify/vocab';
import { getLogger } from '@logtape/logtape';
import type { RemoteActorData } from '../../src/actors/repository.ts';
import { remoteActorData } from '../remote-actor.ts';

export const followLogger = getLogger(['vault', 'federation', 'inbox', 'follows']);

/** A loader that fetches nothing: an activity's embedded object is read, a bare id is not. */
export const embeddedOnly: DocumentLoader = (url) =>
  Promise.reject(new Error(`not fetched: ${url}`));

/**
 * The remote actor `actorUri`, fetched from its own origin with `documentLoader` (signed, so
 * servers in authorized-fetch mode answer), as the vault keeps it; null when it is not an
 * actor, is another id, or cannot be fetched.
 */
export async function fetchRemoteActor(
  ctx: Context<void>,
  actorUri: URL,
  documentLoader: DocumentLoader,
): Promise<RemoteActorData | null> {
  try {
    const found = await ctx.lookupObject(actorUri.href, { documentLoader });
    if (!isActor(found) || found.id?.href !== actorUri.href) return null;
    return await remoteActorData(found, documentLoader);
  } catch (error) {
    followLogger.info('Could not fetch the actor {actor}: {error}', {
      actor: actorUri.href,
      error: String(error).slice(0, 300),
    });
    return null;
  }
}

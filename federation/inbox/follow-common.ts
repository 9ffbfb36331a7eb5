import { getUserAgent, type Context, type DocumentLoader } from '@fedify/fedify';
import { isActor } from '@fedify/vocab';
import { getLogger } from '@logtape/logtape';
import type { RemoteActorData } from '../../src/actors/repository.ts';
import packageJson from '../../package.json' with { type: 'json' };
import type { FederationDeps } from '../deps.ts';
import { OUTBOUND_LIMITS, userDocumentLoader } from '../outbound.ts';
import { remoteActorData } from '../remote-actor.ts';

export const followLogger = getLogger(['vault', 'federation', 'inbox', 'follows']);

/** A loader that fetches nothing: an activity's embedded object is read, a bare id is not. */
export const embeddedOnly: DocumentLoader = (url) =>
  Promise.reject(new Error(`not fetched: ${url}`));

/**
 * The guarded loader for fetches an inbox listener makes on behalf of `identity` (a user, or
 * the instance actor): every GET signed, private addresses refused unless allowed, 10 s, 1 MB,
 * redirects checked (outbound.ts).
 */
export function guardedLoader(
  ctx: Context<void>,
  identity: string,
  deps: FederationDeps,
): Promise<DocumentLoader> {
  return userDocumentLoader(ctx, identity, {
    allowPrivateAddress: deps.allowPrivateAddress,
    userAgent: getUserAgent({ software: `vault/${packageJson.version}`, url: deps.config.origin }),
    ...OUTBOUND_LIMITS,
  });
}

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
    const found = await ctx.lookupObject(actorUri.href, {
      documentLoader,
      contextLoader: documentLoader,
    });
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

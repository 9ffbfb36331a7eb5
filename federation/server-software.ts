import type { DocumentLoader } from '@fedify/fedify';
import type { FederationGateway } from './gateway.ts';

// Fedify's types only: this module is loaded with the API routes at start.

const NODEINFO_SCHEMA = /^https?:\/\/nodeinfo\.diaspora\.software\/ns\/schema\/2\.[0-9]+$/;

/** The href of the newest NodeInfo 2.x schema a `/.well-known/nodeinfo` document links. */
function nodeInfoHref(document: unknown): string | undefined {
  const links = (document as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return undefined;
  const found = (links as { rel?: unknown; href?: unknown }[])
    .filter((link) => typeof link?.rel === 'string' && NODEINFO_SCHEMA.test(link.rel))
    .map((link) => link.href)
    .filter((href): href is string => typeof href === 'string' && /^https?:\/\//.test(href));
  return found.sort().at(-1);
}

/**
 * The software the server of `actorUri` runs, as its NodeInfo names it (`software.name`,
 * lowercase: 'vault', 'mastodon', 'gotosocial'…): `/.well-known/nodeinfo` on the actor's
 * origin, then the NodeInfo 2.x document it links, both through `loader` (the guarded loader:
 * signed, private addresses refused unless allowed, 10 s, 1 MB). Null when the server has no
 * NodeInfo or cannot be read.
 */
export async function fetchServerSoftware(
  loader: DocumentLoader,
  actorUri: string,
): Promise<string | null> {
  try {
    const wellKnown = await loader(new URL('/.well-known/nodeinfo', actorUri).href);
    const href = nodeInfoHref(wellKnown.document);
    if (!href) return null;
    const info = (await loader(href)).document as { software?: { name?: unknown } } | null;
    const name = info?.software?.name;
    return typeof name === 'string' && name.trim() !== '' ? name.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

/** fetchServerSoftware on behalf of `username` (GETs signed as the user), through the gateway. */
export async function lookupServerSoftware(
  gateway: FederationGateway,
  username: string,
  actorUri: string,
): Promise<string | null> {
  if (gateway.blocks?.blockOf(actorUri)) return null;
  const vault = await gateway.load();
  return fetchServerSoftware(await vault.documentLoaderFor(username), actorUri);
}

import type { DocumentLoader } from '@fedify/fedify';
import type { RemoteActorData } from '../src/actors/repository.ts';
import { badRequest, DomainError, notFound } from '../src/domain-error.ts';
import type { FederationGateway } from './gateway.ts';
import { remoteActorData } from './remote-actor.ts';

// Fedify is imported on demand below: this module is loaded with the API routes at start.

/** What the follow dialog accepts: a handle (`@name@host`, `name@host`) or an actor URL. */
export type LookupTarget =
  { kind: 'handle'; name: string; host: string } | { kind: 'url'; url: URL };

const HANDLE = /^@?([a-z0-9_][a-z0-9_.-]{0,99})@([a-z0-9.-]{1,253}(?::\d{1,5})?)$/i;

export const LOOKUP_HELP = 'Enter a handle like @name@example.social, or a profile address.';

/** The dialog's text as a handle or a URL; anything else is a 400 with the expected forms. */
export function parseLookupQuery(query: string): LookupTarget {
  const text = query.trim();
  const handle = HANDLE.exec(text);
  if (handle) return { kind: 'handle', name: handle[1]!, host: handle[2]!.toLowerCase() };
  if (/^https?:\/\//i.test(text) && URL.canParse(text)) {
    const url = new URL(text);
    if (!url.username && !url.password) return { kind: 'url', url };
  }
  throw badRequest(LOOKUP_HELP);
}

function describe(target: LookupTarget): string {
  return target.kind === 'handle' ? `@${target.name}@${target.host}` : target.url.href;
}

function hostOf(target: LookupTarget): string {
  return target.kind === 'handle' ? target.host : target.url.host;
}

/**
 * Whether a fetch failed before any answer: the connection was refused or reset, or TLS could
 * not be set up (an http-only host asked over https). Not a refused address (UrlError), an
 * HTTP status, a body too large or a timeout (FetchError).
 */
function couldNotConnect(error: unknown): boolean {
  return error instanceof Error && error.name !== 'UrlError' && error.name !== 'FetchError';
}

/** The schemes a lookup of `target` tried, as the message names them. */
function schemesOf(target: LookupTarget, httpTried: boolean): string {
  if (target.kind === 'url') return target.url.protocol.replace(/:$/, '');
  return httpTried ? 'https or http' : 'https';
}

/** A failed fetch as the message the dialog shows. */
function explain(
  error: unknown,
  target: LookupTarget,
  unknown: string,
  httpTried = false,
): DomainError {
  if (error instanceof Error && error.name === 'BlockedServerError') {
    return blockedServer((error as Error & { domain: string }).domain);
  }
  // Fedify's address guard also refuses a name that does not resolve: that host is unreachable.
  const unresolved = error instanceof Error && /^DNS lookup/.test(error.message);
  if (error instanceof Error && error.name === 'UrlError' && !unresolved) {
    return badRequest(
      `${hostOf(target)} is a private or local network address, which this vault does not contact.`,
    );
  }
  const status = (error as { response?: Response } | null)?.response?.status;
  if (status === 404 || status === 410) return notFound(unknown);
  if (status !== undefined) {
    return new DomainError(422, `${hostOf(target)} answered ${status}; try again later.`);
  }
  return new DomainError(
    422,
    `Could not reach ${hostOf(target)} over ${schemesOf(target, httpTried)}.`,
  );
}

/** A lookup of an account on a server an admin blocked: refused before anything is fetched. */
function blockedServer(domain: string): DomainError {
  return new DomainError(403, `${domain} is a blocked server: this vault does not contact it.`);
}

function notAnActor(target: LookupTarget): DomainError {
  return new DomainError(422, `${describe(target)} is not a fediverse account.`);
}

/**
 * The actor URL WebFinger gives for a handle (its `self` link of an ActivityPub type). Asked
 * over https; over http as well when `tryHttp` (private addresses allowed: a LAN or a test's
 * server may serve plain http) and https could not even connect.
 */
async function webFinger(
  loader: DocumentLoader,
  target: Extract<LookupTarget, { kind: 'handle' }>,
  tryHttp: boolean,
): Promise<string> {
  const resource = `acct:${target.name}@${target.host}`;
  const path = `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  const unknown = `No account ${describe(target)} was found.`;
  let document: unknown;
  try {
    document = (await loader(`https://${target.host}${path}`)).document;
  } catch (error) {
    if (!tryHttp || !couldNotConnect(error)) throw explain(error, target, unknown);
    try {
      document = (await loader(`http://${target.host}${path}`)).document;
    } catch (second) {
      throw explain(second, target, unknown, true);
    }
  }
  const links = (document as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) throw notFound(unknown);
  for (const link of links as { rel?: unknown; type?: unknown; href?: unknown }[]) {
    const type = typeof link?.type === 'string' ? link.type : '';
    const activityPub =
      type === 'application/activity+json' ||
      /^application\/ld\+json;\s*profile="https:\/\/www\.w3\.org\/ns\/activitystreams"$/.test(type);
    if (link?.rel === 'self' && activityPub && typeof link.href === 'string') {
      if (URL.canParse(link.href) && /^https?:$/.test(new URL(link.href).protocol)) {
        return link.href;
      }
    }
  }
  throw notFound(unknown);
}

/**
 * Finds a remote actor for the follow dialog, on behalf of `username`: WebFinger for a handle
 * (over https; over http too when private addresses are allowed and https cannot connect),
 * then the actor document, each GET signed as the user (servers in authorized-fetch mode
 * answer), through the guarded document loader (private addresses refused unless allowed,
 * 10 s, 1 MB, redirects checked). Nothing is stored. Refusals are DomainErrors: 400 for text
 * that is neither a handle nor a URL and for a private address, 403 for a blocked server
 * (before Fedify loads, and for a WebFinger answer or redirect that leads to one), 404 for an unknown account,
 * 422 for a host that cannot be reached or a document that is not an actor.
 */
export async function lookupRemoteActor(
  gateway: FederationGateway,
  username: string,
  query: string,
): Promise<RemoteActorData> {
  const target = parseLookupQuery(query);
  const where = target.kind === 'url' ? target.url : `https://${target.host}/`;
  const blocked = gateway.blocks?.blockOf(where);
  if (blocked) throw blockedServer(blocked);
  const vault = await gateway.load();
  const loader = await vault.documentLoaderFor(username);
  const actorUrl =
    target.kind === 'handle'
      ? await webFinger(loader, target, vault.allowPrivateAddress)
      : target.url.href;
  let remote;
  try {
    remote = await loader(actorUrl);
  } catch (error) {
    throw explain(error, target, `No account ${describe(target)} was found.`);
  }
  const { Object: ActivityObject, isActor } = await import('@fedify/vocab');
  let object: unknown;
  try {
    object = await ActivityObject.fromJsonLd(remote.document, {
      documentLoader: loader,
      contextLoader: loader,
      baseUrl: new URL(remote.documentUrl),
    });
  } catch {
    throw notAnActor(target);
  }
  if (!isActor(object) || object.id?.origin !== new URL(remote.documentUrl).origin) {
    throw notAnActor(target);
  }
  const data = await remoteActorData(object, loader);
  if (!data) throw notAnActor(target);
  if (data.uri.startsWith(`${gateway.origin}/`)) {
    throw badRequest('That account is on this vault: follow it from the search.');
  }
  return data;
}

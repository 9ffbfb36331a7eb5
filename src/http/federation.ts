import type { MiddlewareHandler } from 'hono';
import type { FederationGateway } from '../../federation/gateway.ts';
import { DomainError, badRequest, forbidden, unauthorized } from '../domain-error.ts';
import type { DomainBlockMatcher } from '../domain-blocks/matcher.ts';
import { actorIdOf, inboundKind } from '../inbound-limits/kind.ts';
import type { InboundKind, InboundLimiter } from '../inbound-limits/limiter.ts';
import { logger } from '../logger.ts';
import { jsonDepthExceeds, readBodyText } from './body-limit.ts';
import { requestHeader } from './node-fast-path.ts';
import { acceptsActivityJson, serverPathOf } from './server-paths.ts';

/** Paths that only ever answer federation requests: never the client, whatever the Accept. */
const FEDERATION_ONLY =
  /^\/(?:\.well-known\/(?:webfinger|nodeinfo|host-meta)$|nodeinfo\/|inbox$|users\/[^/]+\/(?:inbox|outbox|followers|following)$)/;
const INBOX = /^\/(?:inbox|users\/[^/]+\/inbox)$/;
/** ActivityPub objects nest a few levels; nothing legitimate comes near this. */
export const MAX_ACTIVITY_DEPTH = 64;

const json = (status: number, message: string) => Response.json({ message }, { status });

/** What the door checks before Fedify does any work (a key fetch, a parse, a queue write). */
export interface FederationGuards {
  /** Blocked servers (src/domain-blocks/). */
  blocks: Pick<DomainBlockMatcher, 'blockOf'>;
  /** Bounds on what remote servers store (src/inbound-limits/). */
  limits: InboundLimiter;
}

/** A delivery that the limits count once Fedify has accepted it. */
interface Counted {
  kind: InboundKind;
  actor: string;
  host: string;
}

export const BLOCKED_SERVER = 'This server is blocked by this vault.';

/**
 * Hands federation requests to Fedify (the small equivalent of @fedify/hono) and nothing else:
 * the API, images and the client never reach it. A browser asking for /users/alice gets the
 * client's profile page; an ActivityPub request gets the actor. Inbox deliveries are checked
 * before Fedify sees them: signed (HTTP signature headers present), at most 1 MB, valid JSON
 * nested at most 64 deep, not from a blocked server (403, by the actor and the key id, so that
 * no key is fetched), and within the inbound limits (429 with Retry-After). Fedify's plain-text refusals become `{ "message" }` JSON, and an
 * error from remote input is a 400, never a 500.
 */
export function federationMiddleware(
  gateway: FederationGateway,
  guards: FederationGuards,
): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if (!isFederationRequest(c.req.method, path, requestHeader(c, 'accept'))) return next();
    let request = atOrigin(c.req.raw, gateway.origin);
    refuseBlockedKey(request, guards);
    let counted: Counted | undefined;
    if (c.req.method === 'POST' && INBOX.test(path)) {
      const delivery = await checkedDelivery(request);
      request = delivery.request;
      counted = await guardDelivery(delivery.activity, guards);
    }
    const federation = (await gateway.load()).federation;
    let passed = false;
    let response: Response;
    try {
      response = await federation.fetch(request, {
        contextData: undefined,
        onNotFound: async () => {
          if (acceptsActivityJson(c.req.header('accept')) || FEDERATION_ONLY.test(path)) {
            return json(404, 'Not found.');
          }
          passed = true;
          await next();
          return c.res;
        },
        onNotAcceptable: async () => {
          if (FEDERATION_ONLY.test(path)) {
            return json(406, 'This address serves ActivityPub JSON only.');
          }
          passed = true;
          await next();
          return c.res;
        },
      });
    } catch (error) {
      if (passed || error instanceof DomainError) throw error;
      // What a remote sends (an odd document, an unreachable context) must not become a 500.
      logger.debug('Federation request {method} {path} failed: {error}', {
        method: c.req.method,
        path: path.slice(0, 200),
        error: String(error).slice(0, 300),
      });
      throw badRequest('The request could not be processed.');
    }
    if (passed) return;
    // Fedify verified the signature and queued the activity: now it counts against the limits.
    if (counted && response.status >= 200 && response.status < 300) {
      try {
        await guards.limits.take(counted.kind, counted.actor, counted.host);
      } catch {
        // Accepted meanwhile by a concurrent delivery: the next one is refused.
      }
    }
    c.res = await asJsonError(response);
  };
}

/**
 * A request signed with a key of a blocked server is refused (403) before Fedify would fetch
 * that key: a delivery to an inbox, or a signed GET of a Note or collection.
 */
function refuseBlockedKey(request: Request, guards: FederationGuards): void {
  const header = request.headers.get('signature') ?? request.headers.get('signature-input');
  const keyId = header ? /keyid="([^"]+)"/i.exec(header)?.[1] : undefined;
  if (keyId && guards.blocks.blockOf(keyId)) throw forbidden(BLOCKED_SERVER);
}

/**
 * The checks on a delivery's activity before Fedify sees it: its actor's server is not blocked
 * (403), and what it would store is within the limits (429 with Retry-After; nothing counted
 * yet). Answers what to count once Fedify accepts it.
 */
async function guardDelivery(
  activity: unknown,
  guards: FederationGuards,
): Promise<Counted | undefined> {
  const actor = actorIdOf(activity);
  if (!actor || !URL.canParse(actor)) return undefined;
  if (guards.blocks.blockOf(actor)) throw forbidden(BLOCKED_SERVER);
  const kind = inboundKind(activity);
  if (!kind) return undefined;
  const host = new URL(actor).host;
  await guards.limits.check(kind, actor, host);
  return { kind, actor, host };
}

/** Whether a request is for Fedify: by the server path table, the method and the Accept. */
function isFederationRequest(method: string, path: string, accept: string | undefined) {
  const entry = serverPathOf(path);
  if (!entry || entry.prefix === '/api/' || entry.prefix === '/media/') return false;
  if (FEDERATION_ONLY.test(path)) return true;
  if (entry.serves === 'activitypub') {
    // /users/alice: the actor for ActivityPub, the profile page for a browser.
    return (method !== 'GET' && method !== 'HEAD') || acceptsActivityJson(accept);
  }
  return false;
}

/**
 * The request as addressed to VAULT_ORIGIN (same path and query, Host set to the origin's).
 * Behind a TLS-terminating reverse proxy the server sees http://127.0.0.1:8080/inbox while the
 * sender signed https://vault.example/inbox: HTTP signatures (RFC 9421's @target-uri and
 * @authority, draft-cavage's Host) are checked against the public address, never the local one.
 */
function atOrigin(request: Request, origin: string): Request {
  const seen = new URL(request.url);
  const url = new URL(`${seen.pathname}${seen.search}`, origin);
  if (url.href === seen.href && request.headers.get('host') === url.host) return request;
  const headers = new Headers(request.headers);
  headers.set('host', url.host);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
  return new Request(url, {
    method: request.method,
    headers,
    ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
    signal: request.signal,
  } as RequestInit);
}

/** An inbox delivery, read and checked; a new Request with the same body for Fedify. */
async function checkedDelivery(request: Request): Promise<{ request: Request; activity: unknown }> {
  if (!request.headers.has('signature') && !request.headers.has('signature-input')) {
    throw unauthorized('This inbox accepts only activities signed with an HTTP signature.');
  }
  const text = await readBodyText(request);
  if (jsonDepthExceeds(text, MAX_ACTIVITY_DEPTH)) {
    throw badRequest(`The activity nests deeper than ${MAX_ACTIVITY_DEPTH} levels.`);
  }
  let activity: unknown;
  try {
    activity = JSON.parse(text);
  } catch {
    throw badRequest('The activity is not valid JSON.');
  }
  const copy = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: text,
  });
  return { request: copy, activity };
}

/** Fedify answers refusals in plain text; the vault's clients read `{ "message" }`. */
async function asJsonError(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return response;
  const text = (await response.text()).trim().slice(0, 300);
  return json(response.status, text || 'The request failed.');
}

/**
 * The one table of paths the server answers itself; every other path is the web client.
 * `src/app.ts` routes by it, and the Vite dev server (web/vite.config.ts) proxies exactly these
 * prefixes to the server, so a new server path is added here once.
 *
 * `serves`:
 *  - `server`: always the server (the JSON API, stored images, federation-only endpoints);
 *  - `activitypub`: the server for ActivityPub requests (an Accept naming an ActivityPub JSON
 *    type, or any non-GET), the client for a browser asking for a page. `/users/alice` is both
 *    Alice's actor and her profile page.
 */
export interface ServerPath {
  prefix: string;
  serves: 'server' | 'activitypub';
  what: string;
}

export const SERVER_PATHS: readonly ServerPath[] = [
  { prefix: '/api/', serves: 'server', what: 'the JSON API' },
  { prefix: '/media/', serves: 'server', what: 'stored images (photos and avatars)' },
  { prefix: '/.well-known/', serves: 'server', what: 'WebFinger, NodeInfo discovery, host-meta' },
  { prefix: '/nodeinfo/', serves: 'server', what: 'NodeInfo 2.1' },
  { prefix: '/inbox', serves: 'server', what: 'the shared ActivityPub inbox' },
  { prefix: '/ns/', serves: 'server', what: 'JSON-LD contexts (the vault namespace, /ns/vault)' },
  { prefix: '/users/', serves: 'activitypub', what: 'actors, their inboxes and collections' },
];

/** Media types that mark a request as an ActivityPub (or WebFinger) request. */
export const ACTIVITY_JSON_TYPES = [
  'application/activity+json',
  'application/ld+json',
  'application/jrd+json',
] as const;

export function acceptsActivityJson(accept: string | null | undefined): boolean {
  if (!accept) return false;
  return ACTIVITY_JSON_TYPES.some((type) => accept.includes(type));
}

/** The entry of SERVER_PATHS a path falls under, if any. */
export function serverPathOf(pathname: string): ServerPath | undefined {
  return SERVER_PATHS.find((p) =>
    p.prefix.endsWith('/')
      ? pathname.startsWith(p.prefix)
      : pathname === p.prefix || pathname.startsWith(`${p.prefix}/`),
  );
}

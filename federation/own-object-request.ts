/** Media types that ask for an ActivityPub object rather than a page. */
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json)/i;

/** The 404 an object the requester may not read answers, the same as one that never existed. */
export const objectNotFound = () =>
  new Response(JSON.stringify({ message: 'Not found' }), {
    status: 404,
    headers: { 'Content-Type': 'application/json', Vary: 'Accept' },
  });

/**
 * Whether a request is an ActivityPub GET (or HEAD) of one of this vault's own objects served
 * before Fedify routes it (comment Notes, an entry's replies): its path matched against
 * `pattern`, whose first group is the username. Undefined for any other request; `notFound`
 * for a username that cannot be decoded; else the match with the decoded username.
 */
export function ownObjectRequest(
  request: Request,
  origin: string,
  pattern: RegExp,
): { match: RegExpExecArray; username: string } | 'notFound' | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (!ACTIVITY_JSON.test(request.headers.get('accept') ?? '')) return undefined;
  const url = new URL(request.url);
  const match = pattern.exec(url.pathname);
  if (!match || url.origin !== new URL(origin).origin || url.search !== '') return undefined;
  try {
    return { match, username: decodeURIComponent(match[1]!) };
  } catch {
    return 'notFound';
  }
}

/**
 * A handle given to WebFinger, in any spelling Mastodon accepts: with or without the `acct:`
 * scheme, in any case. A URL (`https://…/users/alice`) or another scheme does not match.
 */
const HANDLE_RESOURCE = /^(?:acct:)?([^@\s:/]+)@([^@\s/]+)$/i;

/**
 * The WebFinger request with its handle written canonically, `acct:{username}@{host}` in lower
 * case (usernames are lowercase), before Fedify answers it: Fedify 2.3.6 refuses a resource
 * without a scheme (400) and echoes the resource as the subject (`acct:ALICE@host`). Mastodon
 * accepts `alice@host` and answers with the account's own handle as the subject, and a server
 * that checks the subject against what it asked for compares it case-insensitively. Any other
 * request is returned as it is.
 */
export function canonicalWebFingerRequest(request: Request): Request {
  if (request.method !== 'GET' && request.method !== 'HEAD') return request;
  const url = new URL(request.url);
  if (url.pathname !== '/.well-known/webfinger') return request;
  const resource = url.searchParams.get('resource');
  const handle = resource === null ? null : HANDLE_RESOURCE.exec(resource);
  if (!handle) return request;
  const canonical = `acct:${handle[1]!.toLowerCase()}@${handle[2]!.toLowerCase()}`;
  if (canonical === resource) return request;
  url.searchParams.set('resource', canonical);
  return new Request(url, request);
}

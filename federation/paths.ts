/**
 * Where the ActivityPub endpoints live (URI templates; {identifier} is the username).
 * Fedify builds every URL from these and from the configured origin, never from a request.
 */
export const FEDERATION_PATHS = {
  actor: '/users/{identifier}',
  inbox: '/users/{identifier}/inbox',
  sharedInbox: '/inbox',
  outbox: '/users/{identifier}/outbox',
  followers: '/users/{identifier}/followers',
  following: '/users/{identifier}/following',
  nodeInfo: '/nodeinfo/2.1',
  /** An entry's Note; {id} is the entry id. */
  entryNote: '/users/{identifier}/entries/{id}',
} as const;

/** The public web page of a user's profile (the client's /users/{username} route). */
export function profileUrl(origin: string, username: string): URL {
  return new URL(`/users/${encodeURIComponent(username)}`, origin);
}

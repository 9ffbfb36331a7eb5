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
  /** An entry's Note; {id} is the entry id, then `-{generation}` after its first return. */
  entryNote: '/users/{identifier}/entries/{id}',
} as const;

/**
 * The server's own actor, an Application at /users/instance.actor. Fedify signs with its key
 * every GET it makes on no user's behalf: above all the fetch of the key that signed a delivery
 * to the shared inbox, which servers in authorized-fetch mode (Mastodon's secure mode,
 * GoToSocial) answer only when signed. The identifier contains a dot, which no username may
 * (usernames are 3-30 lowercase letters, digits or underscores), so no user can take it.
 * Here, not beside its keys (instance-actor.ts), so that naming it does not load Fedify.
 */
export const INSTANCE_ACTOR = 'instance.actor';

/** The public web page of a user's profile (the client's /users/{username} route). */
export function profileUrl(origin: string, username: string): URL {
  return new URL(`/users/${encodeURIComponent(username)}`, origin);
}

const NOTE_ID_PARAM = /^([1-9][0-9]{0,14})(?:-([1-9][0-9]{0,8}))?$/;

/**
 * The entry and generation a Note id's last segment (the `{id}` of the path) names, for any
 * generation: `42` is entry 42 at generation 0, `42-3` at generation 3. Undefined for anything
 * else (`42-0`, `042`, `42-x`): each Note has one spelling.
 */
export function noteIdParts(idParam: string): { entryId: number; generation: number } | undefined {
  const match = NOTE_ID_PARAM.exec(idParam);
  if (!match) return undefined;
  return { entryId: Number(match[1]), generation: match[2] === undefined ? 0 : Number(match[2]) };
}

/**
 * The author and the entry (with its generation) of one of this vault's Note ids, whichever
 * generation it is; undefined for any other URL. For anything that receives a reference to a
 * local Note (a reply, a Like).
 */
export function localNoteOf(
  origin: string,
  url: URL | string,
): { username: string; entryId: number; generation: number } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.origin !== new URL(origin).origin || parsed.search !== '' || parsed.hash !== '') {
    return undefined;
  }
  const match = /^\/users\/([^/]+)\/entries\/([^/]+)$/.exec(parsed.pathname);
  const parts = match ? noteIdParts(match[2]!) : undefined;
  if (!match || !parts) return undefined;
  try {
    return { username: decodeURIComponent(match[1]!), ...parts };
  } catch {
    return undefined;
  }
}

/**
 * The id of a cheer's Like of an entry: it follows from the cheer's own id. Here, without Fedify,
 * as the outbox handlers loaded at start name it.
 */
export function likeUri(origin: string, username: string, cheerId: number): URL {
  return new URL(`/users/${encodeURIComponent(username)}/likes/${cheerId}`, origin);
}

/** The id of a cheer's Like of a comment: it follows from the comment cheer's own id. */
export function commentLikeUri(origin: string, username: string, commentCheerId: number): URL {
  return new URL(`/users/${encodeURIComponent(username)}/comment-likes/${commentCheerId}`, origin);
}

/**
 * The client's page of a fediverse account: /users/@name@host, beside /users/{username} of a
 * user of this vault (a username never holds '@'). It looks the account up and offers to follow
 * it (screens/FediverseAccountScreen.tsx). Pure (unit-tested in test/web/comment-links.test.ts).
 */

/** '@name@host' (or 'name@host') as the path of its page; null when it is not a handle. */
export function handlePath(handle: string): string | null {
  const match = /^@?([^@/\s]+)@([^@/\s]+)$/u.exec(handle);
  if (!match) return null;
  return `/users/@${encodeURIComponent(match[1]!)}@${encodeURIComponent(match[2]!)}`;
}

/** The handle '@name@host' a /users/… path segment names, or null for a username. */
export function handleOfSegment(segment: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return /^@[^@/\s]+@[^@/\s]+$/u.test(text) ? text : null;
}

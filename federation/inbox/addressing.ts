import type { NoteAddressing } from '../../src/conversation/reply-audience.ts';
import type { FederationDeps } from '../deps.ts';
import { INSTANCE_ACTOR } from '../paths.ts';
import { localPath, type ReplyNote } from './conversation-common.ts';

/** The Public collection as servers write it (expanded, compacted, bare). */
const PUBLIC = new Set(['https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public']);

const LOCAL_ACTOR = /^\/users\/([^/]+)(\/followers)?$/;

/**
 * A local user's actor (`/users/{username}`, which is also their profile page's URL, so a
 * `Mention` may name either) or followers collection (`/users/{username}/followers`) that a URL
 * names; undefined for any other URL. Only users with activityPubEnabled: the fediverse knows
 * no other.
 */
async function localAddress(
  deps: FederationDeps,
  url: string,
): Promise<{ userId: number; followers: boolean } | undefined> {
  const local = localPath(deps.config.origin, url, LOCAL_ACTOR);
  if (!local || local.username === INSTANCE_ACTOR) return undefined;
  const user = await deps.users.findFederatedByUsername(local.username);
  return user && { userId: user.id, followers: local.match[2] !== undefined };
}

/**
 * Whom a Note by `actor` is addressed to and whom it mentions, from its `to`, `cc` and
 * `Mention` tags (src/conversation/reply-audience.ts decides its audience). Mastodon and
 * GoToSocial address a reply the same way: public `to` Public, `cc` the author's followers and
 * the mentioned; unlisted `to` the author's followers, `cc` Public and the mentioned;
 * followers-only `to` the author's followers, `cc` the mentioned; direct `to` the mentioned
 * alone. The author's followers collection is `{actor}/followers` on both.
 */
export async function noteAddressing(
  deps: FederationDeps,
  note: ReplyNote,
  actor: URL,
): Promise<NoteAddressing> {
  const addressing: NoteAddressing = {
    public: false,
    followersOf: [],
    authorFollowers: false,
    users: [],
    actors: [],
    mentionedUsers: [],
    mentionedActors: [],
  };
  const authorFollowers = `${actor.href}/followers`;
  for (const id of [...note.to, ...note.cc]) {
    if (PUBLIC.has(id)) addressing.public = true;
    else if (id === authorFollowers) addressing.authorFollowers = true;
    else if (id !== actor.href) {
      const local = await localAddress(deps, id);
      if (local?.followers) addressing.followersOf.push(local.userId);
      else if (local) addressing.users.push(local.userId);
      else addressing.actors.push(id);
    }
  }
  for (const href of note.mentions) {
    const local = await localAddress(deps, href);
    if (local && !local.followers) addressing.mentionedUsers.push(local.userId);
    else if (!local && href !== actor.href) addressing.mentionedActors.push(href);
  }
  return addressing;
}

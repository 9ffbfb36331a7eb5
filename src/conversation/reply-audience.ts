import type { CommentAudience } from '../../contract/enums.ts';

/**
 * Whom a remote Note is addressed to (`to` and `cc`) and whom it mentions (`Mention` tags), as
 * the inbox reads them (federation/inbox/addressing.ts): local users by id (users with
 * activityPubEnabled, the only ones the fediverse can name), anyone else by actor URI.
 */
export interface NoteAddressing {
  /** The Public collection is in `to` or `cc` (a public or unlisted post). */
  public: boolean;
  /** Local users whose followers collection is in `to` or `cc`. */
  followersOf: number[];
  /** The author's own followers collection is in `to` or `cc`. */
  authorFollowers: boolean;
  /** Local users named in `to` or `cc`. */
  users: number[];
  /** Other actors named in `to` or `cc`. */
  actors: string[];
  /** Local users a `Mention` tag names. */
  mentionedUsers: number[];
  /** Other actors a `Mention` tag names. */
  mentionedActors: string[];
}

/**
 * The audience of a remote reply on an entry of `ownerId` (docs/federation.md, "The audience of
 * a reply"), never wider than the Note was addressed: the Public collection in `to` or `cc`
 * (Mastodon's and GoToSocial's public and unlisted) is PUBLIC; the entry owner's followers
 * collection OWNER_FOLLOWERS; the author's own followers collection (a followers-only reply)
 * AUTHOR_FOLLOWERS; nothing but people (a direct reply, "mentioned people only") DIRECT. Any
 * other address (another account's followers, a collection the vault does not know) widens
 * nothing.
 */
export function replyAudience(addressing: NoteAddressing, ownerId: number): CommentAudience {
  if (addressing.public) return 'PUBLIC';
  if (addressing.followersOf.includes(ownerId)) return 'OWNER_FOLLOWERS';
  if (addressing.authorFollowers) return 'AUTHOR_FOLLOWERS';
  return 'DIRECT';
}

/**
 * The people a reply is addressed to, each once: local users (`users`) and remote actor URIs
 * (`actors`), `mentioned` when a `Mention` tag names them. The author is not among them.
 */
export function replyAddressees(addressing: NoteAddressing): {
  users: Map<number, boolean>;
  actors: Map<string, boolean>;
} {
  const users = new Map<number, boolean>();
  const actors = new Map<string, boolean>();
  for (const id of addressing.users) users.set(id, false);
  for (const uri of addressing.actors) actors.set(uri, false);
  for (const id of addressing.mentionedUsers) users.set(id, true);
  for (const uri of addressing.mentionedActors) actors.set(uri, true);
  return { users, actors };
}

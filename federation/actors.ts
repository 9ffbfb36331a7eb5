import type { ActorKeyPair, Context, Federation } from '@fedify/fedify';
import { Endpoints, Image, Person } from '@fedify/vocab';
import type { webcrypto } from 'node:crypto';
import type { UserRow } from '../src/db/schema/index.ts';
import type { FederationDeps } from './deps.ts';
import { textToHtml } from './html.ts';
import { instanceActorFor, type InstanceKeyStore } from './instance-actor.ts';
import { FEDERATION_PATHS, INSTANCE_ACTOR, profileUrl } from './paths.ts';
import { instantFromDate } from './temporal.ts';

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

/**
 * Every user with activityPubEnabled is a Person at /users/{username}; everyone else does not
 * exist for the fediverse (the dispatcher answers null: 404 to actor fetches and WebFinger).
 * WebFinger (acct:{username}@{host of VAULT_ORIGIN}) is served by Fedify from this dispatcher.
 * The server's own Application actor (instance-actor.ts) is /users/instance.actor.
 */
export function registerActors(
  federation: Federation<void>,
  deps: FederationDeps,
  instanceKeys: InstanceKeyStore,
): void {
  federation
    .setActorDispatcher(FEDERATION_PATHS.actor, async (ctx, identifier) => {
      if (identifier === INSTANCE_ACTOR) {
        return instanceActorFor(ctx, await ctx.getActorKeyPairs(identifier), deps.config.origin);
      }
      const user = await deps.users.findFederatedByUsername(identifier);
      if (!user) return null;
      return personFor(ctx, user, await ctx.getActorKeyPairs(identifier), deps.config.origin);
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      if (identifier === INSTANCE_ACTOR) return instanceKeys.keyPairs();
      const user = await deps.users.findFederatedByUsername(identifier);
      if (!user) return [];
      return deps.keys.keyPairsFor(user.id);
    })
    // Handles are case-insensitive in the fediverse; usernames here are lowercase.
    .mapHandle(async (_ctx, username) => {
      const name = username.toLowerCase();
      if (name === INSTANCE_ACTOR) return INSTANCE_ACTOR;
      return (await deps.users.findFederatedByUsername(name))?.username ?? null;
    });
}

/**
 * The Person of a federating user: the actor document served at /users/{username}, and the
 * object of the Update(Person) her changes send (profile-delivery.ts).
 */
export function personFor(
  ctx: Context<void>,
  user: UserRow,
  keys: ActorKeyPair[],
  origin: string,
): Person {
  const identifier = user.username;
  // ActorKeyPair extends the DOM's CryptoKeyPair, which this project's libs do not declare.
  const rsa = (keys as (ActorKeyPair & webcrypto.CryptoKeyPair)[]).find(
    (key) => key.privateKey.algorithm.name === 'RSASSA-PKCS1-v1_5',
  );
  return new Person({
    id: ctx.getActorUri(identifier),
    preferredUsername: user.username,
    name: user.fullName,
    summary: textToHtml(user.bio),
    icon: avatarImage(user.avatarPath, origin),
    url: profileUrl(origin, user.username),
    published: instantFromDate(user.createdAt),
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: rsa?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
    discoverable: false,
    indexable: false,
    manuallyApprovesFollowers: user.approveFollowers,
  });
}

/** The avatar as served by the app at '/' + avatarPath. */
function avatarImage(avatarPath: string | null, origin: string): Image | null {
  if (!avatarPath) return null;
  const url = new URL(avatarPath.replace(/^\/+/, ''), `${origin}/`);
  const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase();
  const mediaType = extension ? IMAGE_TYPES[extension] : undefined;
  return new Image({ url, ...(mediaType ? { mediaType } : {}) });
}

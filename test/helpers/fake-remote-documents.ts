import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import {
  AS_CONTEXT,
  MASTODON_ACTOR_TERMS,
  SECURITY_CONTEXT,
  type ActivityAuthor,
  type Json,
} from './fake-remote-activities.ts';

/** The documents the fake remote serves, shaped as Mastodon 4 serves them. */

export const ACTIVITY_JSON = 'application/activity+json';

export interface AccountProfile {
  name?: string;
  /** HTML, as Mastodon serves it. */
  summary?: string;
  manuallyApprovesFollowers?: boolean;
  icon?: { url: string; mediaType: string } | null;
}

export interface FakeAccount extends ActivityAuthor {
  keyId: string;
  inbox: string;
  outbox: string;
  following: string;
  /** The profile page (`{origin}/@{username}`). */
  url: string;
  publicKeyPem: string;
  privateKey: KeyObject;
  profile: AccountProfile;
  /** Deleted: its actor answers 410 Gone and WebFinger 404. */
  gone: boolean;
}

/** An account with a new RSA 2048 key pair; `id` is its actor id. */
export function newAccount(
  origin: string,
  username: string,
  id: string,
  profile: AccountProfile,
): FakeAccount {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    username,
    origin,
    id,
    keyId: `${id}#main-key`,
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    following: `${id}/following`,
    url: `${origin}/@${username}`,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey,
    profile,
    gone: false,
  };
}

/** A Person (an Application for the instance actor) with its publicKey and shared inbox. */
export function actorDocument(account: FakeAccount, type: 'Person' | 'Application'): Json {
  return {
    '@context': [AS_CONTEXT, SECURITY_CONTEXT, MASTODON_ACTOR_TERMS],
    id: account.id,
    type,
    following: account.following,
    followers: account.followers,
    inbox: account.inbox,
    outbox: account.outbox,
    preferredUsername: account.username,
    name: account.profile.name ?? account.username,
    summary: account.profile.summary ?? '',
    url: account.url,
    manuallyApprovesFollowers: account.profile.manuallyApprovesFollowers ?? false,
    discoverable: true,
    published: '2024-01-01T00:00:00Z',
    publicKey: { id: account.keyId, owner: account.id, publicKeyPem: account.publicKeyPem },
    tag: [],
    attachment: [],
    endpoints: { sharedInbox: `${account.origin}/inbox` },
    ...(account.profile.icon ? { icon: { type: 'Image', ...account.profile.icon } } : {}),
  };
}

/** An OrderedCollection with its items inline (followers, following, outbox). */
export function orderedCollection(id: string, items: string[]): Json {
  return {
    '@context': AS_CONTEXT,
    id,
    type: 'OrderedCollection',
    totalItems: items.length,
    orderedItems: items,
  };
}

/** The JRD WebFinger answers for `acct:{username}@{host}`. */
export function webfingerJrd(account: FakeAccount, host: string): Json {
  return {
    subject: `acct:${account.username}@${host}`,
    aliases: [account.url, account.id],
    links: [
      { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: account.url },
      { rel: 'self', type: ACTIVITY_JSON, href: account.id },
    ],
  };
}

export function nodeInfoLinks(origin: string): Json {
  const href = `${origin}/nodeinfo/2.0`;
  return { links: [{ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.0', href }] };
}

/** NodeInfo 2.0 claiming Mastodon 4.3 (or another software). */
export function nodeInfo(users: number, software = 'mastodon'): Json {
  return {
    version: '2.0',
    software: { name: software, version: '4.3.0' },
    protocols: ['activitypub'],
    services: { outbound: [], inbound: [] },
    usage: { users: { total: users }, localPosts: 0 },
    openRegistrations: false,
    metadata: {},
  };
}

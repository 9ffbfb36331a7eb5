import type { Federation, PageItems, RequestContext } from '@fedify/fedify';
import type { Activity, Actor, Recipient } from '@fedify/vocab';
import type { UserRow } from '../src/db/schema/index.ts';
import type { FederationDeps } from './deps.ts';
import { FEDERATION_PATHS, INSTANCE_ACTOR } from './paths.ts';

/**
 * Where a collection's items come from. A source either lists everything at once (firstCursor
 * gives null, page is called with cursor null) or in pages: firstCursor gives the opaque cursor
 * of the first page and each page names the next one.
 */
export interface CollectionSource<TItem, TFilter = void> {
  count(user: UserRow): Promise<number>;
  firstCursor(user: UserRow): Promise<string | null>;
  page(
    user: UserRow,
    cursor: string | null,
    filter?: TFilter,
  ): PageItems<TItem> | Promise<PageItems<TItem>>;
}

/** The sources of the actor collections: outbox-collection.ts and follow-collections.ts. */
export interface CollectionSources {
  /**
   * Activities the user published (Create/Update/Delete of entries, Follow, ...); the filter
   * is the request, for sources that show their items only to some readers.
   */
  outbox: CollectionSource<Activity, RequestContext<void>>;
  /** Who follows the user; filter is the base URL of FEP-8fcf followers-only delivery. */
  followers: CollectionSource<Recipient, URL>;
  /** Whom the user follows. */
  following: CollectionSource<Actor | URL>;
}

/**
 * outbox, followers and following of every federated user, as OrderedCollections. A user who
 * is not federated has none of them (404). The instance actor's three are always empty.
 */
export function registerCollections(federation: Federation<void>, deps: FederationDeps): void {
  const { users, collections } = deps;
  const owner = async (identifier: string): Promise<Owner> =>
    identifier === INSTANCE_ACTOR
      ? INSTANCE_ACTOR
      : await users.findFederatedByUsername(identifier);

  federation
    .setOutboxDispatcher(FEDERATION_PATHS.outbox, async (ctx, identifier, cursor) =>
      page(await owner(identifier), (user) => collections.outbox.page(user, cursor, ctx)),
    )
    .setCounter(async (_ctx, identifier) => count(collections.outbox, await owner(identifier)))
    .setFirstCursor(async (_ctx, identifier) => first(collections.outbox, await owner(identifier)));

  federation
    .setFollowersDispatcher(FEDERATION_PATHS.followers, async (_ctx, identifier, cursor, filter) =>
      page(await owner(identifier), (user) => collections.followers.page(user, cursor, filter)),
    )
    .setCounter(async (_ctx, identifier) => count(collections.followers, await owner(identifier)))
    .setFirstCursor(async (_ctx, identifier) =>
      first(collections.followers, await owner(identifier)),
    );

  federation
    .setFollowingDispatcher(FEDERATION_PATHS.following, async (_ctx, identifier, cursor) =>
      page(await owner(identifier), (user) => collections.following.page(user, cursor)),
    )
    .setCounter(async (_ctx, identifier) => count(collections.following, await owner(identifier)))
    .setFirstCursor(async (_ctx, identifier) =>
      first(collections.following, await owner(identifier)),
    );
}

/** A federated user, the instance actor, or nobody (404). */
type Owner = UserRow | typeof INSTANCE_ACTOR | undefined;

function page<T>(
  owner: Owner,
  of: (user: UserRow) => PageItems<T> | Promise<PageItems<T>>,
): PageItems<T> | Promise<PageItems<T>> | null {
  if (owner === INSTANCE_ACTOR) return { items: [] };
  return owner ? of(owner) : null;
}

async function count<T, F>(source: CollectionSource<T, F>, owner: Owner): Promise<number | null> {
  if (owner === INSTANCE_ACTOR) return 0;
  return owner ? source.count(owner) : null;
}

async function first<T, F>(source: CollectionSource<T, F>, owner: Owner): Promise<string | null> {
  return owner && owner !== INSTANCE_ACTOR ? source.firstCursor(owner) : null;
}

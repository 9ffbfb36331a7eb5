import type { Hono } from 'hono';
import type { ActivityItem } from '../../contract/social.ts';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentTasting } from '../tastings/present.ts';

/** Entry views by id: an entry in a page twice (logged, then tasted) is shown alike. */
function byId<T extends { id: number }>(views: T[]): Map<number, T> {
  return new Map(views.map((view) => [view.id, view]));
}

/**
 * /api/activity: entries (and tastings) newly logged by the people the caller follows, local and remote, a page
 * at a time; and 'Add to vault' for remote ones (local ones use POST /beverages/{id}/clone).
 */
export function activityRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/activity');

  on('GET /activity', async (c, { query }) => {
    const viewer = currentUser(c);
    const { items, nextCursor } = await ctx.feed.page(viewer, query);
    const local = items.flatMap((item) => (item.kind === 'remote' ? [] : [item.entry]));
    const remote = items.flatMap((item) => (item.kind === 'remote' ? [item.entry] : []));
    const beverages = byId(await ctx.entryViews.entries(viewer, local));
    const received = byId(await ctx.entryViews.remoteEntries(viewer, remote));
    return {
      activities: items.map((item): ActivityItem => {
        const createdAt = item.createdAt.toISOString();
        if (item.kind === 'remote') {
          const { actor } = item.entry;
          return {
            id: item.activityId,
            kind: 'remote',
            actor: {
              fullName: actor.displayName,
              handle: actor.handle ?? actor.uri,
              actorUri: actor.uri,
            },
            beverage: received.get(item.entry.id)!,
            createdAt,
          };
        }
        const beverage = beverages.get(item.entry.id)!;
        const common = { id: item.activityId, actor: item.actor, beverage };
        return item.kind === 'tasting'
          ? { ...common, kind: 'tasting', tasting: presentTasting(item.tasting), createdAt }
          : { ...common, kind: 'local', createdAt };
      }),
      nextCursor,
    };
  });

  // 'Add to vault' of an entry received from a remote vault.
  on('POST /activity/remote-entries/{id}/clone', async (c, { body }) => {
    const viewer = currentUser(c);
    const entry = await ctx.remoteEntries.clone(viewer, idParam(c, 'id', 'Entry'), body.status);
    return { beverage: ctx.entryViews.created(viewer, entry) };
  });

  return router;
}

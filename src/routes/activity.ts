import type { Hono } from 'hono';
import { NO_CONVERSATION, type ConversationCounts } from '../../contract/conversation.ts';
import type { ActivityItem, RemoteActivityItem } from '../../contract/social.ts';
import { presentBeverage } from '../beverages/present.ts';
import type { AppContext } from '../context.ts';
import type { RemoteFeedItem } from '../feed/service.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentTasting } from '../tastings/present.ts';

/** A received entry as the feed shows it: plain fields, the vault's own photo copy. */
function presentRemoteItem(item: RemoteFeedItem, counts: ConversationCounts): RemoteActivityItem {
  const { entry } = item;
  return {
    id: item.activityId,
    kind: 'remote',
    actor: {
      fullName: entry.actor.displayName,
      handle: entry.actor.handle ?? entry.actor.uri,
      actorUri: entry.actor.uri,
    },
    beverage: {
      id: entry.id,
      type: entry.type,
      name: entry.name,
      subtype: entry.subtype,
      makerName: entry.makerName,
      rating: entry.rating,
      notes: entry.notes,
      status: entry.status,
      tasting: entry.tasting,
      photoPath: entry.photoPath,
      noteUri: entry.noteUri,
      createdAt: entry.publishedAt.toISOString(),
      updatedAt: entry.updatedAt.toISOString(),
      cheerCount: counts.cheerCount,
      cheeredByMe: counts.cheeredByMe,
      commentCount: counts.commentCount,
    },
    createdAt: item.createdAt.toISOString(),
  };
}

/**
 * /api/activity: entries (and tastings) newly logged by the people the caller follows, local and remote, a page
 * at a time; and 'Add to vault' for remote ones (local ones use POST /beverages/{id}/clone).
 */
export function activityRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/activity');

  on('GET /activity', (c, { query }) => {
    const viewer = currentUser(c);
    const page = ctx.feed.page(viewer, query);
    // The conversation counts of the page: one statement for each kind of entry it holds.
    const idsOf = (kinds: readonly string[]) =>
      page.items.filter((item) => kinds.includes(item.kind)).map((item) => item.entry.id);
    const local = ctx.conversation.countsOf(viewer, 'local', idsOf(['local', 'tasting']));
    const remote = ctx.conversation.countsOf(viewer, 'remote', idsOf(['remote']));
    return {
      activities: page.items.map((item): ActivityItem => {
        if (item.kind === 'remote') {
          return presentRemoteItem(item, remote.get(item.entry.id) ?? NO_CONVERSATION);
        }
        const beverage = presentBeverage(
          item.entry,
          viewer.id,
          local.get(item.entry.id) ?? NO_CONVERSATION,
        );
        const common = { id: item.activityId, actor: item.actor, beverage };
        const createdAt = item.createdAt.toISOString();
        return item.kind === 'tasting'
          ? { ...common, kind: 'tasting', tasting: presentTasting(item.tasting), createdAt }
          : { ...common, kind: 'local', createdAt };
      }),
      nextCursor: page.nextCursor,
    };
  });

  // 'Add to vault' of an entry received from a remote vault.
  on('POST /activity/remote-entries/{id}/clone', async (c, { body }) => {
    const viewer = currentUser(c);
    const entry = await ctx.remoteEntries.clone(viewer, idParam(c, 'id', 'Entry'), body.status);
    return { beverage: presentBeverage(entry, viewer.id, NO_CONVERSATION) };
  });

  return router;
}

import { Hono } from 'hono';
import { z } from 'zod';
import { cloneBodySchema } from '../../contract/beverages.ts';
import { NO_CONVERSATION, type ConversationCounts } from '../../contract/conversation.ts';
import {
  ACTIVITY_MAX_LIMIT,
  type ActivityItem,
  type RemoteActivityItem,
} from '../../contract/social.ts';
import { presentBeverage } from '../beverages/present.ts';
import type { AppContext } from '../context.ts';
import type { RemoteFeedItem } from '../feed/service.ts';
import { idParam, parseWith, readOptionalJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ACTIVITY_MAX_LIMIT}`;

const feedQuery = z.object({
  cursor: z
    .string()
    .max(100, 'The cursor is not valid; start again from the first page.')
    .optional(),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, LIMIT_MESSAGE)
    .transform(Number)
    .refine((n) => n <= ACTIVITY_MAX_LIMIT, LIMIT_MESSAGE)
    .optional(),
});

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
 * /api/activity: entries newly logged by the people the caller follows, local and remote, a page
 * at a time; and 'Add to vault' for remote ones (local ones use POST /beverages/{id}/clone).
 */
export function activityRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);

  routes.get('/', (c) => {
    const viewer = currentUser(c);
    const query = parseWith(feedQuery, {
      cursor: c.req.query('cursor'),
      limit: c.req.query('limit'),
    });
    const page = ctx.feed.page(viewer, query);
    // The conversation counts of the page: one statement for each kind of entry it holds.
    const idsOf = (kind: 'local' | 'remote') =>
      page.items.filter((item) => item.kind === kind).map((item) => item.entry.id);
    const local = ctx.conversation.countsOf(viewer, 'local', idsOf('local'));
    const remote = ctx.conversation.countsOf(viewer, 'remote', idsOf('remote'));
    return c.json({
      activities: page.items.map((item): ActivityItem =>
        item.kind === 'remote'
          ? presentRemoteItem(item, remote.get(item.entry.id) ?? NO_CONVERSATION)
          : {
              id: item.activityId,
              kind: 'local',
              actor: item.actor,
              beverage: presentBeverage(
                item.entry,
                viewer.id,
                local.get(item.entry.id) ?? NO_CONVERSATION,
              ),
              createdAt: item.createdAt.toISOString(),
            },
      ),
      nextCursor: page.nextCursor,
    });
  });

  // 'Add to vault' of an entry received from a remote vault (contract/social.ts).
  routes.post('/remote-entries/:id/clone', async (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Entry');
    const { status } = await readOptionalJson(c, cloneBodySchema);
    const entry = await ctx.remoteEntries.clone(viewer, id, status);
    return c.json({ beverage: presentBeverage(entry, viewer.id, NO_CONVERSATION) }, 201);
  });

  return routes;
}

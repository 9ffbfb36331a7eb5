import { Hono } from 'hono';
import { z } from 'zod';
import { ACTIVITY_MAX_LIMIT } from '../../contract/social.ts';
import { presentBeverage } from '../beverages/present.ts';
import type { AppContext } from '../context.ts';
import { parseWith } from '../http/body.ts';
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

/** /api/activity: entries newly logged by the people the caller follows, a page at a time. */
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
    return c.json({
      activities: page.items.map((item) => ({
        id: item.activityId,
        actor: item.actor,
        beverage: presentBeverage(item.entry, viewer.id),
        createdAt: item.createdAt.toISOString(),
      })),
      nextCursor: page.nextCursor,
    });
  });

  return routes;
}

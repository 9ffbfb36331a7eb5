import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentNotification } from '../notifications/present.ts';

/** /api/notifications: the caller's Alerts panel and its answers. */
export function notificationRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/notifications');
  const service = ctx.notifications;

  on('GET /notifications', async (c) => ({
    notifications: (await service.list(currentUser(c))).map(presentNotification),
  }));

  on('POST /notifications/{id}/respond', async (c, { body }) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Notification');
    const { notification, entry } = await service.respond(viewer, id, body);
    return {
      notification: presentNotification(notification),
      ...(entry && { beverage: await ctx.entryViews.entry(viewer, entry) }),
    };
  });

  return router;
}

import { Hono } from 'hono';
import { respondBodySchema } from '../../contract/social.ts';
import { presentBeverage } from '../beverages/present.ts';
import type { AppContext } from '../context.ts';
import { idParam, readJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';
import { presentNotification } from '../notifications/present.ts';

/** /api/notifications: the caller's Alerts panel and its answers. */
export function notificationRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);
  const service = ctx.notifications;

  routes.get('/', (c) =>
    c.json({ notifications: service.list(currentUser(c)).map(presentNotification) }),
  );

  routes.post('/:id/respond', async (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Notification');
    const body = await readJson(c, respondBodySchema);
    const { notification, entry } = service.respond(viewer, id, body);
    return c.json({
      notification: presentNotification(notification),
      ...(entry && {
        beverage: presentBeverage(
          entry,
          viewer.id,
          ctx.conversation.counts(viewer, { kind: 'local', id: entry.id }),
        ),
      }),
    });
  });

  return routes;
}

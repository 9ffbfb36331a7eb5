import { Hono } from 'hono';
import { statsQuerySchema } from '../../contract/stats.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../domain-error.ts';
import { parseWith } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';

/** /api/stats: the caller's own figures, and a year in review (contract/stats.ts). */
export function statsRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);

  // No tz, or an empty one, is UTC.
  const timeZoneOf = (tz: string | undefined) =>
    parseWith(statsQuerySchema, { tz: tz || undefined }).tz ?? 'UTC';

  routes.get('/', (c) => {
    const timeZone = timeZoneOf(c.req.query('tz'));
    return c.json(ctx.stats.overview(currentUser(c).id, timeZone));
  });

  routes.get('/years/:year', (c) => {
    const raw = c.req.param('year');
    if (!/^[0-9]{4}$/.test(raw)) throw badRequest('The year must be four digits, such as 2025');
    const timeZone = timeZoneOf(c.req.query('tz'));
    return c.json(ctx.stats.yearReview(currentUser(c).id, Number(raw), timeZone));
  });

  return routes;
}

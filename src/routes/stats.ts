import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { badRequest } from '../domain-error.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/** /api/stats: the caller's own figures, and a year in review (contract/routes/data.ts). */
export function statsRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/stats');

  // No tz, or an empty one, is UTC.
  on('GET /stats', (c, { query }) => ctx.stats.overview(currentUser(c).id, query.tz || 'UTC'));

  on('GET /stats/years/{year}', async (c, { query }) => {
    const raw = c.req.param('year') ?? '';
    if (!/^[0-9]{4}$/.test(raw)) throw badRequest('The year must be four digits, such as 2025');
    return ctx.stats.yearReview(currentUser(c).id, Number(raw), query.tz || 'UTC');
  });

  return router;
}

import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/** /api/cellar's reads in figures: the caller's cellar summed up, and its bottles by place. */
export function cellarFigureRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/cellar');
  const figures = ctx.cellarFigures;

  on('GET /cellar', (c) => figures.summary(currentUser(c).id));

  on('GET /cellar/bottles', (c, { query }) => figures.bottles(currentUser(c).id, query));

  return router;
}

import { Hono } from 'hono';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { importQuerySchema, importReportQuerySchema } from '../../contract/imports.ts';
import type { AppContext } from '../context.ts';
import { parseWith } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';

/**
 * /api/imports: the caller's imports. POST takes the file itself as the body (any content
 * type; at most 50 MB, src/http/body-limit.ts) and answers 202 with the queued job.
 */
export function importRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);
  const service = ctx.imports;

  routes.post('/', async (c) => {
    const viewer = currentUser(c);
    const query = parseWith(importQuerySchema, c.req.query());
    const body = c.req.raw.body as WebReadableStream<Uint8Array> | null;
    const job = await service.receive(viewer, body, query);
    return c.json({ job }, 202);
  });

  routes.get('/', async (c) => c.json({ jobs: await service.list(currentUser(c)) }));

  routes.get('/:id', async (c) =>
    c.json({ job: await service.get(currentUser(c), c.req.param('id')) }),
  );

  routes.get('/:id/report', async (c) => {
    const query = parseWith(importReportQuerySchema, c.req.query());
    return c.json(await service.report(currentUser(c), c.req.param('id'), query));
  });

  return routes;
}

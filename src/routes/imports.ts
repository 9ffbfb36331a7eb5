import type { Hono } from 'hono';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { AppContext } from '../context.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/**
 * /api/imports: the caller's imports (contract/routes/data.ts). POST takes the file itself as
 * the body (any content type; at most 50 MB, src/http/body-limit.ts) and answers 202 with the
 * queued job.
 */
export function importRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/imports');
  const service = ctx.imports;

  on('POST /imports', async (c, { query }) => {
    const body = c.req.raw.body as WebReadableStream<Uint8Array> | null;
    return { job: await service.receive(currentUser(c), body, query) };
  });

  on('GET /imports', async (c) => ({ jobs: await service.list(currentUser(c)) }));

  on('GET /imports/{id}', async (c) => ({
    job: await service.get(currentUser(c), c.req.param('id') ?? ''),
  }));

  on('GET /imports/{id}/report', (c, { query }) =>
    service.report(currentUser(c), c.req.param('id') ?? '', query),
  );

  return router;
}

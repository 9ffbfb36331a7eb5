import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';

/**
 * GET /api/openapi.json: the OpenAPI 3.1 description of the API (src/openapi/document.ts). It
 * is built from the route table on the first request and kept: the table does not change while
 * the process runs.
 */
export function openApiRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/openapi.json');
  let body: Promise<string> | undefined;
  on('GET /openapi.json', async (c) => {
    body ??= buildOpenApiDocument({ origin: ctx.config.origin }).then((doc) => JSON.stringify(doc));
    return c.body(await body, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
  return router;
}

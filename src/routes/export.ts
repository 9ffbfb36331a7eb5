import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { exportQuerySchema } from '../../contract/export.ts';
import type { AppContext } from '../context.ts';
import { parseWith } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';

/**
 * GET /api/export: the signed-in user's vault as a ZIP (entries.csv, entries.json, photos/),
 * streamed as it is made (src/export/archive.ts). `?username=NAME`: an admin exports another
 * user's vault; anyone else gets 403 for a name not their own.
 */
export function exportRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', requireUser, async (c) => {
    const query = parseWith(exportQuerySchema, c.req.query());
    const { fileName, stream } = await ctx.exports.exportFor(currentUser(c), query.username);
    const headers = {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${fileName}"`,
    };
    // HEAD (which Hono answers with this handler): the headers alone, nothing read.
    if (c.req.method === 'HEAD') {
      stream.destroy();
      return c.body(null, 200, headers);
    }
    return c.body(Readable.toWeb(stream) as ReadableStream<Uint8Array>, 200, headers);
  });
  return routes;
}

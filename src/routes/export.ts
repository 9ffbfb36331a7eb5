import { Readable } from 'node:stream';
import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { checkAccess, contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/**
 * GET /api/export: the signed-in user's vault as a ZIP (entries.csv, entries.json, photos/),
 * streamed as it is made (src/export/archive.ts). `?username=NAME`: an admin exports another
 * user's vault; anyone else gets 403 for a name not their own. That is an admin's power, so an
 * access token (even an admin's) exports its owner's vault only.
 */
export function exportRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/export');
  on('GET /export', async (c, { query }) => {
    const viewer = currentUser(c);
    if (query.username !== undefined && query.username !== viewer.username) {
      if (c.get('token')) checkAccess(c, 'admin');
    }
    const { fileName, stream } = await ctx.exports.exportFor(viewer, query.username);
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
  return router;
}

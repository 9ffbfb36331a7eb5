import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { notFound } from '../domain-error.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';

/**
 * /api/backups (admins only, contract/routes/data.ts): the vault's backups. POST makes one now
 * and answers once it is written; GET /{name} streams the file; DELETE /{name} removes it.
 */
export function backupRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/backups');

  on('GET /backups', () => ({
    backups: ctx.backups.list(),
    schedule: { intervalHours: ctx.config.backupIntervalHours, keep: ctx.config.backupKeep },
  }));

  on('POST /backups', async () => ({ backup: await ctx.backups.create('manual') }));

  on('GET /backups/{name}', (c) => {
    const { file, backup } = ctx.backups.find(c.req.param('name') ?? '');
    let fd: number;
    try {
      fd = fs.openSync(file, 'r'); // open before answering: a backup deleted meanwhile is a 404
    } catch {
      throw notFound('No such backup.');
    }
    const stream = Readable.toWeb(fs.createReadStream('', { fd })) as ReadableStream;
    return c.body(stream, 200, {
      'content-type': 'application/zip',
      'content-length': String(backup.sizeBytes),
      'content-disposition': `attachment; filename="${backup.name}"`,
    });
  });

  on('DELETE /backups/{name}', (c) => {
    ctx.backups.remove(c.req.param('name') ?? '');
  });

  return router;
}

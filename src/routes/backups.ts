import fs from 'node:fs';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { BackupList, CreatedBackup } from '../../contract/backups.ts';
import type { AppContext } from '../context.ts';
import { notFound } from '../domain-error.ts';
import type { AppEnv } from '../http/env.ts';
import { requireAdmin } from '../http/session.ts';

/**
 * /api/backups (admins only): the vault's backups. POST makes one now and answers once it is
 * written; GET /{name} streams the file; DELETE /{name} removes it.
 */
export function backupRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use('*', requireAdmin);

  routes.get('/', (c) => {
    const body: BackupList = {
      backups: ctx.backups.list(),
      schedule: { intervalHours: ctx.config.backupIntervalHours, keep: ctx.config.backupKeep },
    };
    return c.json(body);
  });

  routes.post('/', async (c) => {
    const body: CreatedBackup = { backup: await ctx.backups.create('manual') };
    return c.json(body, 201);
  });

  routes.get('/:name', (c) => {
    const { file, backup } = ctx.backups.find(c.req.param('name'));
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

  routes.delete('/:name', (c) => {
    ctx.backups.remove(c.req.param('name'));
    return c.body(null, 204);
  });

  return routes;
}

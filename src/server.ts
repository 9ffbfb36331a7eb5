import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { createContext, type ContextOptions } from './context.ts';
import { ensureFirstAdmin } from './users/first-admin.ts';
import { startUploadsSweeps } from './media/sweep.ts';
import { logger } from './logger.ts';
import { startBackgroundCheckpoints } from './db/checkpointer.ts';
import { startBackupSchedule } from './backups/schedule.ts';
import { startServerMarker } from './backups/server-marker.ts';

export interface RunningVault {
  url: string;
  port: number;
  ctx: ReturnType<typeof createContext>;
  /** Stops accepting requests, stops the federation queue, closes the database. */
  close(): Promise<void>;
}

/** Opens the database (migrating it), bootstraps the first admin, and serves the app. */
export async function startVault(
  config: Config,
  options: ContextOptions = {},
): Promise<RunningVault> {
  // Refuses while a restore replaces the data; `restore` refuses while the marker is there.
  const marker = startServerMarker(config.dataDir);
  const ctx = createContext(config, options);
  await ctx.domainBlocks.ready; // the blocked servers, read before anything is served
  ctx.backups.removeUnfinished();
  await ctx.idempotency.forgetUnfinished();
  const admin = await ensureFirstAdmin(ctx.users, ctx.userAdmin, {
    username: config.adminUsername,
    password: config.adminPassword,
    email: config.adminEmail,
  });
  if (admin?.generatedPassword) {
    logger.warn(
      'Created the first admin. Username: {username}  Password: {password}  (shown once: sign in and change it)',
      { username: admin.username, password: admin.generatedPassword },
    );
  } else if (admin) {
    logger.info('Created the first admin {username} with the configured password.', admin);
  }
  const app = createApp(ctx);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(s),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  ctx.federation.startQueue();
  ctx.outbox.start(); // delivers what a previous run recorded but did not deliver
  // Imports a stop interrupted go on; uploads a crash left half-received are dropped.
  ctx.imports.start().catch((error: unknown) => logger.error('Imports: {error}', { error }));
  // SQLite's write-ahead log is copied back into the file in a worker; PostgreSQL does its own.
  const checkpoints = ctx.database.sqlite
    ? startBackgroundCheckpoints(ctx.database.sqlite, config.databasePath)
    : undefined;
  const purge = setInterval(() => {
    void ctx.sessions
      .purgeExpired()
      .catch((error: unknown) => logger.error('Purging sessions: {error}', { error }));
  }, 60 * 60_000);
  purge.unref();
  // What a crash left in the uploads folder, at start and then periodically, in the background.
  const sweeps = startUploadsSweeps(ctx, config.uploadsSweepIntervalMinutes * 60_000);
  const backupSchedule = startBackupSchedule(ctx.backups, config.backupIntervalHours);
  return {
    url: `http://localhost:${port}`,
    port,
    ctx,
    async close() {
      clearInterval(purge);
      sweeps.stop();
      backupSchedule.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await checkpoints?.stop();
      await ctx.close();
      marker.remove();
    },
  };
}

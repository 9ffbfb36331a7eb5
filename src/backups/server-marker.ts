import path from 'node:path';
import { ConfigError } from '../config.ts';
import { markedBy, writeMarker } from '../process-marker.ts';

/**
 * '<data>/server.pid': a process marker (src/process-marker.ts) written when a server starts on
 * a data folder, touched every HEARTBEAT_MS while it runs, removed when it stops. `npm run vault -- restore` refuses while
 * the process it names is alive on this machine, or while it was touched within STALE_MS (a
 * server in another container or on another machine sharing the folder). A marker left by a
 * crash names a dead process and goes stale: it is ignored. '<data>/restore.pid' is the same
 * for a restore under way, and a server refuses to start while it is there. Each side writes
 * its own marker before it looks for the other's, so that of two starting at once, one sees
 * the other.
 */
export type MarkerKind = 'server' | 'restore';
const fileOf = (dataDir: string, kind: MarkerKind) => path.join(dataDir, `${kind}.pid`);

export const markRunning = (dataDir: string, kind: MarkerKind) =>
  writeMarker(fileOf(dataDir, kind));

export const markServerRunning = (dataDir: string) => markRunning(dataDir, 'server');

/** The server (or restore) running on this data folder ('process 123 on host'), or null. */
export const running = (dataDir: string, kind: MarkerKind, now = Date.now()) =>
  markedBy(fileOf(dataDir, kind), now);

export const runningServer = (dataDir: string) => running(dataDir, 'server');

/** Thrown at start while a restore replaces the data folder's contents. */
export class RestoreUnderWayError extends ConfigError {}

/** Marks the server as running, refusing (and unmarking) while a restore is under way. */
export function startServerMarker(dataDir: string): { remove(): void } {
  const marker = markServerRunning(dataDir);
  const restore = running(dataDir, 'restore');
  if (restore !== null) {
    marker.remove();
    throw new RestoreUnderWayError(
      `A restore (${restore}) is replacing the data in ${dataDir}: start the server when it is done.`,
    );
  }
  return marker;
}

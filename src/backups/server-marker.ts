import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config.ts';

/**
 * '<data>/server.pid': written when a server starts on a data folder, touched every
 * HEARTBEAT_MS while it runs, removed when it stops. `npm run vault -- restore` refuses while
 * the process it names is alive on this machine, or while it was touched within STALE_MS (a
 * server in another container or on another machine sharing the folder). A marker left by a
 * crash names a dead process and goes stale: it is ignored. '<data>/restore.pid' is the same
 * for a restore under way, and a server refuses to start while it is there. Each side writes
 * its own marker before it looks for the other's, so that of two starting at once, one sees
 * the other.
 */
export type MarkerKind = 'server' | 'restore';
const fileOf = (dataDir: string, kind: MarkerKind) => path.join(dataDir, `${kind}.pid`);
export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 3 * HEARTBEAT_MS;

interface Marker {
  pid: number;
  host: string;
  startedAt: string;
}

export function markRunning(dataDir: string, kind: MarkerKind): { remove(): void } {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = fileOf(dataDir, kind);
  const marker: Marker = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  fs.writeFileSync(file, `${JSON.stringify(marker)}\n`);
  const heartbeat = setInterval(() => {
    const now = new Date();
    fs.utimes(file, now, now, () => {}); // gone (removed by hand): nothing to do
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    remove() {
      clearInterval(heartbeat);
      try {
        const current = JSON.parse(fs.readFileSync(file, 'utf8')) as Marker;
        if (current.pid === process.pid) fs.unlinkSync(file);
      } catch {
        // already gone, or replaced by another server's marker
      }
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const markServerRunning = (dataDir: string) => markRunning(dataDir, 'server');

/** The server (or restore) running on this data folder ('process 123 on host'), or null. */
export function running(dataDir: string, kind: MarkerKind, now = Date.now()): string | null {
  const file = fileOf(dataDir, kind);
  let marker: Marker;
  let touchedAt: number;
  try {
    marker = JSON.parse(fs.readFileSync(file, 'utf8')) as Marker;
    touchedAt = fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
  const name = `process ${marker.pid} on ${marker.host}`;
  if (marker.host === os.hostname()) {
    return typeof marker.pid === 'number' && isAlive(marker.pid) ? name : null;
  }
  return now - touchedAt < STALE_MS ? name : null;
}

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

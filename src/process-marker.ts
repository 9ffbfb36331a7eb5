import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A file that says a process is doing something on a shared folder: it names the process and
 * its host, and is touched every HEARTBEAT_MS while the process works. Another process reads it
 * as held while the named process is alive on this machine, or, from another machine (a shared
 * volume), while it was touched within STALE_MS. A marker left by a crash names a dead process
 * or goes stale, and is then ignored.
 */
export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 3 * HEARTBEAT_MS;

interface Marker {
  pid: number;
  host: string;
  startedAt: string;
}

/** Writes the marker `file` for this process; `remove()` deletes it if it is still ours. */
export function writeMarker(file: string): { remove(): void } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
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
        // already gone, or replaced by another process's marker
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

/** The live process the marker `file` names ('process 123 on host'), or null. */
export function markedBy(file: string, now = Date.now()): string | null {
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

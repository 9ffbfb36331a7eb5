import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * '<data>/server.pid': written when a server starts on a data folder, removed when it stops.
 * `npm run vault -- restore` refuses while the process it names is alive on this machine.
 * A marker left by a crash names a dead process (or another machine's) and is ignored.
 */
const MARKER = 'server.pid';

interface Marker {
  pid: number;
  host: string;
  startedAt: string;
}

export function markServerRunning(dataDir: string): { remove(): void } {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, MARKER);
  const marker: Marker = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  fs.writeFileSync(file, `${JSON.stringify(marker)}\n`);
  return {
    remove() {
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

/** The process id of a live server on this data folder, or null. */
export function runningServer(dataDir: string): number | null {
  let marker: Marker;
  try {
    marker = JSON.parse(fs.readFileSync(path.join(dataDir, MARKER), 'utf8')) as Marker;
  } catch {
    return null;
  }
  if (typeof marker.pid !== 'number' || marker.host !== os.hostname()) return null;
  return isAlive(marker.pid) ? marker.pid : null;
}

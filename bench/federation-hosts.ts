// The fake fediverse of the federation benchmark (bench/federation.ts): 50 servers on loopback
// ports whose inboxes count every POST with its activity id, and the waiting and printing the
// parts of the benchmark share.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { freePort } from './processes.ts';

export const HOSTS = 50;
export const FOLLOWERS_PER_HOST = 20;

export interface Arrival {
  host: number;
  /** The inbox's path: each follower has their own, and every host a shared one. */
  inbox: string;
  activityId: string;
  /**
   * The followers it reached: a personal inbox's owner, or the followers of this host that a
   * POST to the shared inbox names in its `to` or `cc` (a comment on a local entry names them).
   */
  reached: string[];
  at: number;
}

/** The accounts of `origin` that a POST to `inbox` reaches (Arrival.reached). */
function reachedBy(origin: string, inbox: string, activity: { to?: unknown; cc?: unknown }) {
  if (inbox !== '/inbox') return [`${origin}${inbox.replace(/\/inbox$/, '')}`];
  const named = [activity.to, activity.cc].flatMap((v) => (Array.isArray(v) ? v : [v]));
  return named.filter(
    (u): u is string => typeof u === 'string' && u.startsWith(`${origin}/users/`),
  );
}

/** 50 fake servers: every POST to an inbox answers 202 and is counted; host 0 serves `poster`. */
export async function startHosts(poster: { publicKeyPem: string }) {
  const arrivals: Arrival[] = [];
  const origins: string[] = [];
  const servers: http.Server[] = [];
  for (let h = 0; h < HOSTS; h++) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST') {
          let activity: { id?: string; to?: unknown; cc?: unknown } = {};
          try {
            activity = JSON.parse(Buffer.concat(chunks).toString()) as typeof activity;
          } catch {
            // counted all the same
          }
          const inbox = req.url ?? '';
          arrivals.push({
            host: h,
            inbox,
            activityId: activity.id ?? '',
            reached: reachedBy(origin, inbox, activity),
            at: performance.now(),
          });
          res.writeHead(202).end();
        } else if (h === 0 && req.url === '/users/poster') {
          const id = `${origin}/users/poster`;
          res.writeHead(200, { 'content-type': 'application/activity+json' });
          res.end(
            JSON.stringify({
              '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
              id,
              type: 'Person',
              preferredUsername: 'poster',
              inbox: `${id}/inbox`,
              outbox: `${id}/outbox`,
              followers: `${id}/followers`,
              endpoints: { sharedInbox: `${origin}/inbox` },
              publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: poster.publicKeyPem },
            }),
          );
        } else {
          res.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    origins.push(origin);
    servers.push(server);
  }
  return {
    arrivals,
    origins,
    close: () =>
      Promise.all(
        servers.map((s) => new Promise((resolve) => s.close(resolve).closeAllConnections())),
      ),
  };
}

/** Waits until `done`; false, and says so, when it is not done within `timeoutMs`. */
export async function until(
  what: string,
  done: () => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const started = performance.now();
  while (!done()) {
    if (performance.now() - started > timeoutMs) {
      console.log(`  (${what}: not within ${timeoutMs / 1000} s)`);
      return false;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

/** Prints the p50 and max of `samples` (ms) under `label`. */
export function printStats(label: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)]!;
  const max = sorted.at(-1)!;
  console.log(
    `${label.padEnd(58)} n=${String(samples.length).padStart(4)}  p50 ${p50.toFixed(2).padStart(8)} ms  max ${max.toFixed(2).padStart(8)} ms`,
  );
  return { p50, max };
}

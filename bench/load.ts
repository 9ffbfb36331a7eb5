// A small closed-loop load generator, like `wrk -c N`: N keep-alive HTTP/1.1 connections, each
// sending its next request as soon as the previous answer is complete. Requests are encoded
// once and answers are framed by Content-Length (or a chunked terminator) without parsing
// anything else, so that the generator costs far less than the servers it measures.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Answers whose status was not the expected one. */
  unexpected: number;
}

export interface LoadOptions {
  connections: number;
  durationMs: number;
  headers?: Record<string, string>;
  expectStatus?: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Loads `url` with GET requests for `durationMs` over `connections` connections. */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const target = new URL(url);
  const head = [
    `GET ${target.pathname}${target.search} HTTP/1.1`,
    `Host: ${target.host}`,
    'Connection: keep-alive',
    ...Object.entries(options.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  const request = Buffer.from(head);
  const expected = options.expectStatus ?? 200;
  const latencies: number[] = [];
  let unexpected = 0;
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();

  await Promise.all(
    Array.from(
      { length: options.connections },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(Number(target.port), target.hostname);
          socket.setNoDelay(true);
          let buffer: Buffer = Buffer.alloc(0);
          let sentAt = 0;
          const send = () => {
            if (performance.now() >= deadline) {
              socket.end();
              return resolve();
            }
            sentAt = performance.now();
            socket.write(request);
          };
          socket.on('connect', send);
          socket.on('error', reject);
          socket.on('data', (chunk: Buffer) => {
            buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
            for (;;) {
              const end = buffer.indexOf('\r\n\r\n');
              if (end < 0) return;
              const headText = buffer.subarray(0, end).toString('latin1');
              const length = /\r\ncontent-length:\s*(\d+)/i.exec(headText);
              let total: number;
              if (length) total = end + 4 + Number(length[1]);
              else {
                const terminator = buffer.indexOf('\r\n0\r\n\r\n', end);
                if (terminator < 0) return;
                total = terminator + 7;
              }
              if (buffer.length < total) return;
              const status = Number(headText.slice(9, 12));
              if (status !== expected) unexpected++;
              latencies.push(performance.now() - sentAt);
              buffer = buffer.subarray(total);
              send();
            }
          });
        }),
    ),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: (latencies.length / elapsed) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    unexpected,
  };
}

/** Whether `wrk` (apt-get install wrk) is on the PATH: the load generator the issue used. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;
}

/**
 * The same measurement with wrk (one thread, as the figures were taken): a C load
 * generator costs the shared CPU much less than the Node one. It does not report statuses,
 * so the caller checks the expected status once before.
 */
export function loadWithWrk(url: string, options: LoadOptions): LoadResult {
  const headers = Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const seconds = Math.max(1, Math.round(options.durationMs / 1000));
  const run = spawnSync(
    'wrk',
    ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--latency', ...headers, url],
    { encoding: 'utf8' },
  );
  const out = run.stdout ?? '';
  const ms = (label: string) => {
    const m = new RegExp(`\\s${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return NaN;
    const value = Number(m[1]);
    return m[2] === 'us' ? value / 1000 : m[2] === 's' ? value * 1000 : value;
  };
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const odd = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return {
    requests,
    perSecond,
    p50: ms('50%'),
    p99: ms('99%'),
    // wrk counts 4xx as "non-2xx": expected for the 401 and 404 measurements.
    unexpected: (options.expectStatus ?? 200) < 300 ? odd : 0,
  };
}

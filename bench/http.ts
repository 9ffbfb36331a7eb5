// One-at-a-time HTTP helpers for the benchmark (node:http with keep-alive, bodies encoded once).
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Client {
  cookie: string;
  send(
    method: string,
    pathAndQuery: string,
    body?: { type: string; data: Buffer },
  ): Promise<{ status: number; body: Buffer }>;
}

/** Signs in as `username` and returns a client that sends that session's cookie. */
export async function signIn(origin: string, username: string, password: string): Promise<Client> {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('vault_session='))!
    .split(';')[0]!;
  return { send: client(origin, { cookie, origin }), cookie };
}

function client(origin: string, headers: Record<string, string>): Client['send'] {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  return function send(
    method: string,
    pathAndQuery: string,
    body?: { type: string; data: Buffer },
  ) {
    return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const req = http.request(
        `${origin}${pathAndQuery}`,
        {
          method,
          agent,
          headers: {
            ...headers,
            ...(body && { 'content-type': body.type, 'content-length': body.data.length }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body?.data);
    });
  };
}

/** A multipart/form-data body, encoded once. */
export function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const boundary = '----vault-bench-boundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="bottle.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
}

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Times `fn` n times, one at a time, after a warm-up. With `pauseMs`, waits that long after
 * each call, outside the timing (requests that do not come back to back).
 */
export async function time(
  label: string,
  n: number,
  fn: (i: number) => Promise<unknown>,
  pauseMs = 0,
) {
  const pause = () => (pauseMs > 0 ? new Promise((r) => setTimeout(r, pauseMs)) : undefined);
  for (let i = 0; i < Math.min(20, n); i++) {
    await fn(i); // warm-up
    await pause();
  }
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
    await pause();
  }
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  samples.sort((a, b) => a - b);
  const r = {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    perSecond: (n / total) * 1000,
  };
  console.log(
    `${label.padEnd(58)} n=${String(n).padStart(5)}  p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms  ${r.perSecond.toFixed(0).padStart(6)}/s`,
  );
  return r;
}

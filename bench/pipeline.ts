// The request pipeline against a bare Hono JSON route measured in the same run (issue 8's
// targets): requests per second at 32 connections as ratios to bare Hono, p99 of heavier
// reads under that load, start-to-first-answer, idle memory, and the client's initial JS.
import path from 'node:path';
import { measureInitialClientJs, measureWireBytes } from './client-size.ts';
import type { Client } from './http.ts';
import { hasWrk, load, loadWithWrk, type LoadResult } from './load.ts';
import { startBareHono, startVault, type Running } from './processes.ts';
import type { Verdict } from './verdict.ts';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

export function line(label: string, r: LoadResult, bare?: number) {
  const ratio = bare ? `  ratio ${(r.perSecond / bare).toFixed(2)}` : '';
  const odd = r.unexpected ? `  (${r.unexpected} unexpected statuses!)` : '';
  console.log(
    `${label.padEnd(58)} ${r.perSecond.toFixed(0).padStart(6)}/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms${ratio}${odd}`,
  );
}

const WRK = hasWrk();

/** Requests per second and latency of GETs of `url` at 32 connections, after a warm-up. */
export async function measure(url: string, headers: Record<string, string>, expectStatus: number) {
  const options = { connections: CONNECTIONS, headers, expectStatus };
  await load(url, { ...options, durationMs: 1000 }); // warm-up, and every status checked
  const checked = await load(url, { ...options, durationMs: 200 });
  if (!WRK) return load(url, { ...options, durationMs: SECONDS * 1000 });
  const result = loadWithWrk(url, { ...options, durationMs: SECONDS * 1000 });
  return { ...result, unexpected: result.unexpected + checked.unexpected };
}

/** Starts the vault on `dataDir` three times: start-to-first-answer and idle memory. */
export async function measureStart(dataDir: string) {
  const starts: number[] = [];
  const idle: number[] = [];
  for (let i = 0; i < 3; i++) {
    const vault = await startVault(dataDir);
    starts.push(vault.startMs);
    await new Promise((r) => setTimeout(r, 2000));
    idle.push(vault.rssMb());
    await vault.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  console.log(
    `start to first answer: ${starts.map((s) => s.toFixed(0)).join(' / ')} ms; idle resident memory 2 s after start: ${idle.map((m) => m.toFixed(0)).join(' / ')} MB`,
  );
  return { startMs: median(starts), idleMb: median(idle) };
}

/** Issue 8's targets for starting: time to the first answer and idle resident memory. */
export function startVerdicts(start: { startMs: number; idleMb: number }): Verdict[] {
  return [
    {
      target: 'idle resident memory after start <= 120 MB',
      figure: `${start.idleMb.toFixed(0)} MB`,
      met: start.idleMb <= 120,
    },
    {
      target: 'start to first answer <= 1 s',
      figure: `${start.startMs.toFixed(0)} ms`,
      met: start.startMs <= 1000,
    },
  ];
}

export async function benchPipeline(
  vault: Running,
  client: Client,
  start: { startMs: number; idleMb: number },
): Promise<Verdict[]> {
  console.log(
    WRK
      ? `load generator: wrk, 1 thread, ${CONNECTIONS} connections, ${SECONDS} s a measurement`
      : `load generator: the built-in Node one (install wrk for figures closer to the server's own cost), ${CONNECTIONS} connections, ${SECONDS} s a measurement`,
  );
  const bare = await startBareHono();
  // What Chromium sends with every request; the vault picks the coding of its answer from it.
  const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const signedIn = { ...browser, cookie: client.cookie };
  const api = `${vault.origin}/api`;
  try {
    // Each figure is paired with a bare-Hono measurement taken just before it, so that a
    // machine whose speed drifts during the run (shared CPUs do) skews neither side.
    const paired = async (
      label: string,
      url: string,
      headers: Record<string, string>,
      status: number,
    ) => {
      const bareNow = await measure(`${bare.origin}/hello`, {}, 200);
      const result = await measure(url, headers, status);
      line(
        `${label} (bare Hono just before: ${bareNow.perSecond.toFixed(0)}/s)`,
        result,
        bareNow.perSecond,
      );
      return { ...result, ratio: result.perSecond / bareNow.perSecond };
    };
    const me = await paired('GET /api/auth/me, signed in', `${api}/auth/me`, signedIn, 200);
    const anonymous = await paired(
      'GET /api/auth/me, anonymous (401)',
      `${api}/auth/me`,
      browser,
      401,
    );
    const missing = await paired(
      'GET /assets/missing.js (404)',
      `${vault.origin}/assets/missing.js`,
      browser,
      404,
    );
    const dashboard = await paired(
      'GET /api/beverages?type&status&limit=4 (dashboard)',
      `${api}/beverages?type=WINE&status=TO_TRY&limit=4`,
      signedIn,
      200,
    );
    const page = await paired(
      'GET /api/beverages?type&status (a 100-entry page)',
      `${api}/beverages?type=WHISKEY&status=TRIED`,
      signedIn,
      200,
    );
    const search = await paired(
      'GET /api/beverages?q=cask 42 (search)',
      `${api}/beverages?q=${encodeURIComponent('cask 42')}`,
      signedIn,
      200,
    );

    const client = await measureInitialClientJs(
      path.resolve(import.meta.dirname, '..', 'web', 'dist'),
    );
    const kb = client.gzipBytes / 1024;
    const wireKb = (await measureWireBytes(vault.origin, client.files)) / 1024;
    console.log(
      `client initial JS: ${client.files.length} files, ${(client.rawBytes / 1024).toFixed(1)} KB raw, ${kb.toFixed(1)} KB gzip, ${wireKb.toFixed(1)} KB on the wire (the vault's answer to Accept-Encoding: br, gzip)`,
    );

    const ratio = (r: { ratio: number }) => r.ratio;
    const allExpected = [me, anonymous, missing, dashboard, page, search].every(
      (r) => r.unexpected === 0,
    );
    return [
      {
        target: 'every answer had the expected status',
        figure: allExpected ? 'yes' : 'no',
        met: allExpected,
      },
      {
        target: 'GET /api/auth/me signed in: ratio >= 0.5',
        figure: ratio(me).toFixed(2),
        met: ratio(me) >= 0.5,
      },
      {
        target: 'dashboard list (limit=4): ratio >= 0.25',
        figure: ratio(dashboard).toFixed(2),
        met: ratio(dashboard) >= 0.25,
      },
      {
        target: '100-entry page: p99 < 50 ms at 32 connections',
        figure: `${page.p99.toFixed(1)} ms`,
        met: page.p99 < 50,
      },
      {
        target: 'search: p99 < 50 ms at 32 connections',
        figure: `${search.p99.toFixed(1)} ms`,
        met: search.p99 < 50,
      },
      ...startVerdicts(start),
      { target: 'client initial JS <= 90 KB gzip', figure: `${kb.toFixed(1)} KB`, met: kb <= 90 },
      {
        target: 'client initial JS on the wire (br) <= 90 KB',
        figure: `${wireKb.toFixed(1)} KB`,
        met: wireKb <= 90,
      },
    ];
  } finally {
    await bare.stop();
  }
}

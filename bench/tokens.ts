// The bearer path beside the cookie path: the same signed-in read, GET /api/auth/me (who is
// signed in: the request is almost all authentication), with a session cookie and with an access
// token, each as a ratio to a bare Hono route measured just before it.
// Two rounds each, alternating, so that a machine whose speed drifts skews neither side.
// BENCH_ONLY=tokens runs it alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signIn } from './http.ts';
import { line, measure } from './pipeline.ts';
import { startBareHono, startVault } from './processes.ts';
import type { Verdict } from './verdict.ts';

const ADMIN = 'bench_admin';
const PASSWORD = 'bench tokens password';

export async function benchTokens(): Promise<Verdict[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-tokens-'));
  // No rate limit in the way of the load: the limit's own bookkeeping is still on the path.
  const vault = await startVault(dataDir, [], {
    VAULT_ADMIN_USERNAME: ADMIN,
    VAULT_ADMIN_PASSWORD: PASSWORD,
    VAULT_TOKEN_REQUESTS_PER_MINUTE: String(1e9),
  });
  const bare = await startBareHono();
  try {
    const client = await signIn(vault.origin, ADMIN, PASSWORD);
    const headers = { cookie: client.cookie, origin: vault.origin };
    const made = await fetch(`${vault.origin}/api/tokens`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', scope: 'read' }),
    });
    if (made.status !== 201) throw new Error(`token failed: ${made.status}`);
    const { secret } = (await made.json()) as { secret: string };

    const url = `${vault.origin}/api/auth/me`;
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const ways = {
      cookie: { ...browser, cookie: client.cookie },
      bearer: { ...browser, authorization: `Bearer ${secret}` },
    };
    console.log('\nThe bearer path beside the cookie path, 32 connections:');
    const ratios: Record<keyof typeof ways, number[]> = { cookie: [], bearer: [] };
    let unexpected = 0;
    for (let round = 0; round < 2; round++) {
      for (const way of ['cookie', 'bearer'] as const) {
        const bareNow = await measure(`${bare.origin}/hello`, {}, 200);
        const result = await measure(url, ways[way], 200);
        unexpected += result.unexpected;
        line(
          `GET /api/auth/me, ${way} (bare Hono before: ${bareNow.perSecond.toFixed(0)}/s)`,
          result,
          bareNow.perSecond,
        );
        ratios[way].push(result.perSecond / bareNow.perSecond);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const cookie = mean(ratios.cookie);
    const bearer = mean(ratios.bearer);
    console.log(
      `ratio to bare Hono, mean of two rounds: cookie ${cookie.toFixed(2)}, bearer ${bearer.toFixed(2)}`,
    );
    return [
      {
        target: 'every answer had the expected status',
        figure: unexpected === 0 ? 'yes' : `${unexpected} unexpected`,
        met: unexpected === 0,
      },
      {
        // Within the run-to-run noise of a shared machine (about 5 %).
        target: 'a token read is not slower than a session read',
        figure: `bearer ${bearer.toFixed(2)} / cookie ${cookie.toFixed(2)}`,
        met: bearer >= cookie * 0.95,
      },
    ];
  } finally {
    await bare.stop();
    await vault.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

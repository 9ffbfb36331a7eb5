import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../contract/routes/index.ts';
import { createApp } from '../../src/app.ts';
import { isContractHandler } from '../../src/http/contract-route.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The route table (contract/routes/) is the whole /api: what the server serves, what the client
 * calls and what GET /api/openapi.json describes. A route served without an entry in the table,
 * or registered past the contract router (and so past its access check), fails here.
 */
let vault: TestVault;
beforeAll(() => {
  vault = createTestVault();
});
afterAll(() => vault.close());

/** The served /api routes: `{ key: 'GET /beverages/{id}', handler }` per registered handler. */
function servedApiRoutes() {
  return createApp(vault.ctx)
    .routes.filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/'))
    .map((route) => {
      const path = route.path
        .slice('/api'.length)
        .replace(/\/$/, '')
        .replace(/:(\w+)/g, '{$1}');
      return { key: `${route.method} ${path}`, handler: route.handler };
    });
}

describe('the route table', () => {
  it('lists every route the server serves under /api, and the server serves every route it lists', () => {
    const served = new Set(servedApiRoutes().map((route) => route.key));
    const listed = new Set(Object.keys(apiRoutes));
    const notListed = [...served].filter((key) => !listed.has(key)).sort();
    const notServed = [...listed].filter((key) => !served.has(key)).sort();
    expect({ notListed, notServed }).toEqual({ notListed: [], notServed: [] });
  });

  it('serves every /api route through the contract router, so that none escapes its access check', () => {
    const outside = servedApiRoutes()
      .filter((route) => !isContractHandler(route.handler))
      .map((route) => route.key);
    expect([...new Set(outside)].sort()).toEqual([]);
  });
});

/**
 * What reads a request's JSON or form body: the contract router does, from the table, so that
 * the table says what a route takes and the limit follows from it. (An `upload` route reads
 * its raw stream, `c.req.raw.body`, itself.)
 */
const READS_A_BODY =
  /\b(formData|parseBody|readForm|formReader|busboy|readJson|readOptionalJson)\b|\breq\.(json|text|arrayBuffer|blob)\(/;

describe('request bodies', () => {
  it('the pattern finds a router reading a form or JSON itself', () => {
    for (const line of [
      'const form = await c.req.formData();',
      'const body = await c.req.parseBody();',
      "const { fields } = await readForm(c, ['photo']);",
      'const raw = await c.req.json();',
      'const text = await c.req.text();',
    ]) {
      expect(line).toMatch(READS_A_BODY);
    }
    expect("on('POST /beverages', async (c, { form }) => {").not.toMatch(READS_A_BODY);
  });

  it('no router under src/routes reads a JSON or form body itself: the contract router parses it', () => {
    const folder = path.join(import.meta.dirname, '../../src/routes');
    const readers = fs
      .readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(folder, file), 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            READS_A_BODY.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
          ),
      );
    expect(readers).toEqual([]);
  });
});

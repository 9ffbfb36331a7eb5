import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialScripts } from '../../bench/client-size.ts';
import { startTestServer } from '../helpers/server.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The built client (web/dist, built by test/global-setup.ts) as the real app serves it.
const dist = path.resolve(import.meta.dirname, '..', '..', 'web', 'dist');
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The entry script index.html loads (the biggest file of the build). */
function entryScript(): { url: string; body: Buffer } {
  const url = initialScripts(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))[0]!;
  return { url, body: fs.readFileSync(path.join(dist, url)) };
}

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

let vault: TestVault;
beforeAll(() => {
  vault = createTestVault();
});
afterAll(async () => {
  await vault.close();
});

describe('compressed client files', () => {
  it('sends a script as Brotli to a browser accepting br and gzip, decoding to the built file', async () => {
    const script = entryScript();
    const res = await vault.request(script.url, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = await bytes(res);
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeLessThan(script.body.length / 2);
    expect(zlib.brotliDecompressSync(body).equals(script.body)).toBe(true);
  });

  it('sends gzip to a client accepting only gzip', async () => {
    const script = entryScript();
    const res = await vault.request(script.url, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    const body = await bytes(res);
    expect(Number(res.headers.get('content-length'))).toBe(body.length);
    expect(zlib.gunzipSync(body).equals(script.body)).toBe(true);
  });

  it('sends the file as it is to a client accepting no coding, still saying it varies', async () => {
    const script = entryScript();
    const res = await vault.request(script.url);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    const body = await bytes(res);
    expect(Number(res.headers.get('content-length'))).toBe(script.body.length);
    expect(body.equals(script.body)).toBe(true);
  });

  it('respects q=0, the wildcard and x-gzip', async () => {
    const { url } = entryScript();
    const cases: [string, string | null][] = [
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.1', 'br'],
      ['br;q=0, gzip;q=0', null],
      ['*', 'br'],
      ['*;q=0', null],
      ['br;q=0, *', 'gzip'],
      ['x-gzip', 'gzip'],
      ['identity', null],
      ['deflate', null],
    ];
    for (const [accept, expected] of cases) {
      const res = await vault.request(url, { headers: { 'accept-encoding': accept } });
      expect(res.headers.get('content-encoding'), accept).toBe(expected);
    }
  });

  it('answers HEAD with the headers of the chosen coding and no body', async () => {
    const script = entryScript();
    const get = await vault.request(script.url, { headers: { 'accept-encoding': 'br, gzip' } });
    const head = await vault.request(script.url, {
      method: 'HEAD',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect((await bytes(head)).length).toBe(0);
  });

  it('compresses the shell a client page gets, and the service worker, which stay no-cache', async () => {
    const index = fs.readFileSync(path.join(dist, 'index.html'));
    const page = await vault.request('/vault/whiskey', { headers: { 'accept-encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(zlib.brotliDecompressSync(await bytes(page)).equals(index)).toBe(true);
    const worker = await vault.request('/sw.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(worker.headers.get('content-encoding')).toBe('gzip');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const original = fs.readFileSync(path.join(dist, 'sw.js'));
    expect(zlib.gunzipSync(await bytes(worker)).equals(original)).toBe(true);
  });

  it('gives the compressed files no address of their own', async () => {
    const { url } = entryScript();
    for (const suffix of ['.br', '.gz']) {
      const res = await vault.request(url + suffix);
      expect(res.status, suffix).toBe(404);
    }
  });

  it('sends the same bytes over a real connection, with a Content-Length that matches them', async () => {
    const server = await startTestServer();
    try {
      const script = entryScript();
      const get = (method: string) =>
        new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          const request = http.request(
            new URL(script.url, server.url),
            { method, headers: { 'accept-encoding': 'br, gzip' } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(chunk));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          );
          request.on('error', reject);
          request.end();
        });
      const full = await get('GET');
      expect(full.headers['content-encoding']).toBe('br');
      expect(full.headers['vary']).toBe('Accept-Encoding');
      expect(Number(full.headers['content-length'])).toBe(full.body.length);
      expect(zlib.brotliDecompressSync(full.body).equals(script.body)).toBe(true);
      const head = await get('HEAD');
      expect(head.headers['content-length']).toBe(full.headers['content-length']);
      expect(head.body.length).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('source maps', () => {
  it('are built but not served by default, and no script names one', async () => {
    const script = entryScript();
    expect(fs.existsSync(path.join(dist, `${script.url}.map`))).toBe(true);
    expect(script.body.toString('utf8')).not.toContain('sourceMappingURL');
    const map = await vault.request(`${script.url}.map`);
    expect(map.status).toBe(404);
    const res = await vault.request(script.url);
    expect(res.headers.get('sourcemap')).toBeNull();
  });

  it('are served, and named in a SourceMap header, with VAULT_SERVE_SOURCE_MAPS=true', async () => {
    const debugging = createTestVault({ env: { VAULT_SERVE_SOURCE_MAPS: 'true' } });
    try {
      const script = entryScript();
      const res = await debugging.request(script.url);
      expect(res.headers.get('sourcemap')).toBe(`${script.url}.map`);
      const map = await debugging.request(`${script.url}.map`);
      expect(map.status).toBe(200);
      expect(map.headers.get('content-type')).toBe('application/json');
      const parsed = (await map.json()) as { version: number; sources: string[] };
      expect(parsed.version).toBe(3);
      expect(parsed.sources.length).toBeGreaterThan(0);
    } finally {
      await debugging.close();
    }
  });
});

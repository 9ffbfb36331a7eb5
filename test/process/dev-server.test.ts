import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_PATHS } from '../../src/http/server-paths.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sessionCookieFrom } from '../helpers/vault.ts';

// `npm run dev`: the Vite dev server (web/vite.config.ts) in front of a real vault, proxying the
// paths the vault answers itself and serving the client for everything else.
const root = path.resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'dev-server-password';

let vault: TestServer;
let vite: ViteDevServer;
let viteUrl: string;
let cacheDir: string;

beforeAll(async () => {
  vault = await startTestServer();
  await vault.createUser({ username: 'alice', password: PASSWORD, activityPubEnabled: true });
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-vite-cache-'));
  const previous = process.env.VAULT_DEV_PROXY_TARGET;
  process.env.VAULT_DEV_PROXY_TARGET = vault.url;
  try {
    vite = await createServer({
      configFile: path.join(root, 'web', 'vite.config.ts'),
      cacheDir,
      logLevel: 'silent',
      clearScreen: false,
      optimizeDeps: { noDiscovery: true, include: [] },
      server: { host: '127.0.0.1', port: 0, strictPort: false, watch: null, hmr: false },
    });
  } finally {
    if (previous === undefined) delete process.env.VAULT_DEV_PROXY_TARGET;
    else process.env.VAULT_DEV_PROXY_TARGET = previous;
  }
  await vite.listen();
  const address = vite.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('the dev server has no port');
  viteUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await vite?.close();
  await vault?.close();
  if (cacheDir) fs.rmSync(cacheDir, { recursive: true, force: true });
});

const throughVite = (pathname: string, init: RequestInit = {}) =>
  fetch(new URL(pathname, viteUrl), { redirect: 'manual', ...init });

/** Signs alice in through the dev server and returns her session cookie. */
async function signIn(): Promise<string> {
  const res = await throughVite('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return sessionCookieFrom(res);
}

describe('the dev server (npm run dev)', () => {
  it('proxies every path of the server table, so photos show', async () => {
    const cookie = await signIn();
    const form = new FormData();
    form.set('name', 'Pictured');
    form.set('type', 'WHISKEY');
    form.set('subtype', 'Bourbon');
    form.set('photo', new Blob([await jpeg(320, 240)], { type: 'image/jpeg' }), 'bottle.jpg');
    const created = await throughVite('/api/beverages', {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
    expect(created.status).toBe(201);
    const { photoPath } = (await json(created)).beverage as { photoPath: string };
    expect(photoPath).toMatch(/^media\/[a-f0-9]{32}\.jpg$/);

    const photo = await throughVite(`/${photoPath}`, { headers: { cookie, accept: 'image/*' } });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const me = await throughVite('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json(me)).toHaveProperty('message');

    // Every `server` path reaches the vault, even from a browser: never Vite's own page (which
    // loads /@vite/client; the vault's answer is JSON, an image or its built client).
    for (const { prefix } of SERVER_PATHS.filter((p) => p.serves === 'server')) {
      const res = await throughVite(`${prefix.replace(/\/$/, '')}/dev-server-probe`, {
        headers: { accept: 'text/html' },
      });
      expect(await res.text(), prefix).not.toContain('/@vite/client');
    }
  });

  it('gives a browser asking for /users/alice the client and an ActivityPub request the actor', async () => {
    const page = await throughVite('/users/alice', {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('/@vite/client');
    expect(html).toContain('/src/main.tsx');

    const actor = await throughVite('/users/alice', {
      headers: { accept: 'application/activity+json' },
    });
    expect(actor.status).toBe(200);
    expect(actor.headers.get('content-type')).toMatch(/^application\/activity\+json/);
    expect((await json(actor)).preferredUsername).toBe('alice');
  });

  it('serves the client for paths the server does not answer', async () => {
    const res = await throughVite('/whiskey', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/@vite/client');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beveragePageSchema, beverageResponseSchema } from '../../contract/beverages.ts';
import { vaultExportSchema } from '../../contract/export.ts';
import { statsSchema } from '../../contract/stats.ts';
import { createdTokenSchema } from '../../contract/tokens.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * A day's work with an access token alone, as a script would do it: log a bottle with its
 * photo, list the cellar, read the statistics and take an export. The token is made once with
 * the session on the profile; after that no cookie is sent.
 */
let vault: TestVault;
let secret: string;

beforeAll(async () => {
  vault = createTestVault();
  const user = await vault.createUser({ username: 'olive' });
  const cookie = await vault.login('olive', user.password);
  const res = await vault.postJson(
    '/api/tokens',
    { name: 'Cellar script', scope: 'write' },
    cookie,
  );
  expect(res.status).toBe(201);
  secret = createdTokenSchema.parse(await json(res)).secret;
});
afterAll(() => vault.close());

/** A request as curl would send it: the token, no cookie, no Origin. */
function withToken(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${secret}`);
  return vault.app.request(new URL(path, vault.origin).toString(), { ...init, headers });
}

describe('a day with a write token alone', () => {
  it('logs an entry with a photo, lists the cellar, reads the statistics and exports', async () => {
    const form = new FormData();
    form.append('name', 'Lagavulin 16');
    form.append('type', 'WHISKEY');
    form.append('status', 'TRIED');
    form.append('rating', '5');
    form.append('inCellar', 'true');
    form.append('photo', new Blob([new Uint8Array(await jpeg(64, 48))], { type: 'image/jpeg' }));
    const logged = await withToken('/api/beverages', { method: 'POST', body: form });
    expect(logged.status).toBe(201);
    const entry = beverageResponseSchema.parse(await json(logged)).beverage;
    expect(entry).toMatchObject({ name: 'Lagavulin 16', inCellar: true });
    expect(entry.photoPath).toMatch(/^media\/.+\.jpg$/);

    const cellar = await withToken('/api/beverages?cellar=true');
    expect(cellar.status).toBe(200);
    const page = beveragePageSchema.parse(await json(cellar));
    expect(page.beverages.map((b) => b.id)).toEqual([entry.id]);

    const stats = await withToken('/api/stats');
    expect(stats.status).toBe(200);
    const figures = statsSchema.parse(await json(stats));
    expect(figures.all).toMatchObject({ total: 1, tried: 1, inCellar: 1 });

    const exported = await withToken('/api/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/zip/);
    const files = await unzip(new Uint8Array(await exported.arrayBuffer()));
    const data = vaultExportSchema.parse(JSON.parse(files.get('entries.json')!.toString('utf8')));
    expect(data.entries.map((e) => e.name)).toEqual(['Lagavulin 16']);
    expect([...files.keys()].some((name) => name.startsWith('photos/'))).toBe(true);
    expect(exported.headers.getSetCookie()).toEqual([]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vaultExportSchema } from '../../contract/export.ts';
import {
  launchBrowser,
  openSignedIn,
  signedInState,
  type BrowserSession,
} from '../helpers/browser.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let browser: Browser;
let session: BrowserSession;
const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-export-download-'));

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  const owner = await server.createUser({ username: 'exporter', password: 'exporter-password' });
  await server.ctx.beverages.create(owner, { name: 'Lagavulin 16', type: 'WHISKEY' });
  await server.ctx.beverages.create(
    owner,
    { name: 'Label shot', type: 'WINE' },
    await jpeg(200, 300),
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(downloads, { recursive: true, force: true });
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.context.close();
});

describe('Export my vault on the profile page', () => {
  it('downloads a ZIP of my entries and photos named for me and the day', async () => {
    const state = await signedInState(browser, server.url, 'exporter', 'exporter-password');
    session = await openSignedIn(browser, server.url, state, '/profile');
    const { page } = session;
    const panel = page.getByRole('region', { name: 'Export my vault' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('link', { name: 'Export my vault' }).click(),
    ]);
    const day = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`vault-exporter-${day}.zip`);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const files = await unzip(fs.readFileSync(file));
    const data = vaultExportSchema.parse(JSON.parse(files.get('entries.json')!.toString('utf8')));
    expect(data.entries.map((e) => e.name)).toEqual(['Lagavulin 16', 'Label shot']);
    expect(files.has(data.entries[1]!.photo!)).toBe(true);
  });
});

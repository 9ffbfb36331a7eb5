import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultExportSchema } from '../../contract/export.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';

const people = peopleInBrowsers([{ username: 'exporter', password: 'exporter-password' }]);
const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-export-download-'));

beforeAll(async () => {
  const owner = (await people.server.ctx.users.findByUsername('exporter'))!;
  await people.server.ctx.beverages.create(owner, { name: 'Lagavulin 16', type: 'WHISKEY' });
  await people.server.ctx.beverages.create(
    owner,
    { name: 'Label shot', type: 'WINE' },
    await jpeg(200, 300),
  );
});

afterAll(() => {
  fs.rmSync(downloads, { recursive: true, force: true });
});

describe('Export my vault on the profile page', () => {
  it('downloads a ZIP of my entries and photos named for me and the day', async () => {
    const page = await people.openAs('exporter', '/profile');
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

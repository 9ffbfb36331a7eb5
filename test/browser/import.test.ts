import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';

const samples = path.join(import.meta.dirname, '..', 'imports', 'samples');

const people = peopleInBrowsers([{ username: 'importer', password: 'importer-password' }]);
let importerId: number;

beforeAll(() => {
  importerId = people.userId('importer');
});

describe('Import entries on the profile page', () => {
  it('imports an Untappd file, shows the counts and lists the rows it did not import', async () => {
    const page = await people.openAs('importer', '/profile');
    const panel = page.getByRole('region', { name: 'Import entries' });
    await panel.getByLabel(/^File/).setInputFiles(path.join(samples, 'untappd.csv'));
    await panel.getByRole('button', { name: 'Import', exact: true }).click();

    const last = page.getByRole('region', { name: 'Last import' });
    await last.getByText('Imported 5').waitFor();
    await expect(last.getByText('Duplicates 1').isVisible()).resolves.toBe(true);
    const table = last.getByRole('table');
    await table.waitFor();
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Atak Chmielu');
    expect(rows[0]).toContain('Duplicate');
    expect(rows[1]).toContain('The row has no name');

    await page.goto(`${people.server.url}/beer`);
    await page.getByText('Westmalle Tripel').first().waitFor();
  });

  it('says why a file cannot be imported and starts nothing', async () => {
    const page = await people.openAs('importer', '/profile');
    const panel = page.getByRole('region', { name: 'Import entries' });
    await panel.getByLabel(/^File/).setInputFiles({
      name: 'notes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('colour,size\nred,big\n'),
    });
    await panel.getByRole('button', { name: 'Import', exact: true }).click();
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/columns of this file were not recognized/);
    // Only the first test's import exists.
    expect(await people.server.ctx.imports.list({ id: importerId })).toHaveLength(1);
  });
});

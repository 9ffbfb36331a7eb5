import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';

/*
 * The Admin Console's Backups section against the real server in Chromium: make a backup, see
 * it listed, download it, delete it.
 */

const people = peopleInBrowsers();

const backupsOf = (page: Page) => page.getByRole('region', { name: 'Backups', exact: true });

describe('the Backups section of the Admin Console', () => {
  it('makes a backup, lists it, downloads it and deletes it', async () => {
    const page = await people.openAs('admin', '/admin');
    const section = backupsOf(page);
    await expect.poll(() => section.getByText('No backups yet.').isVisible()).toBe(true);
    expect(await section.textContent()).toContain(
      'A scheduled backup every 24 hours, keeping the last 7.',
    );

    await section.getByRole('button', { name: 'Back up now' }).click();
    const list = section.getByRole('list', { name: 'Backups' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    expect(await list.textContent()).toContain('Made by hand');
    expect(await seriousViolations(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      list.getByRole('link', { name: /^Download the backup of / }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^vault-backup-\d{8}-\d{6}-manual\.zip$/);
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vault-download-')), 'b.zip');
    await download.saveAs(saved);
    // A ZIP file starts with 'PK'.
    expect(fs.readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });

    await list.getByRole('button', { name: /^Delete the backup of / }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this backup?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await section.getByText('No backups yet.').waitFor();
    expect(fs.readdirSync(people.server.ctx.config.backupDir)).toEqual([]);
  });

  it('fits a 390 px wide screen with a backup listed, with no serious accessibility problem', async () => {
    const made = await fetch(`${people.server.url}/api/backups`, {
      method: 'POST',
      headers: {
        origin: people.server.url,
        cookie: await people.cookieOf('admin'),
      },
    });
    expect(made.status).toBe(201);
    const page = await people.openAs('admin', '/admin', {
      width: 390,
      height: 844,
    });
    await backupsOf(page).getByRole('list', { name: 'Backups' }).waitFor();
    const scrollWidth = (await page.evaluate('document.scrollingElement.scrollWidth')) as number;
    expect(scrollWidth).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

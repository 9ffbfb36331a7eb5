import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startBackgroundCheckpoints } from '../../src/db/checkpointer.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

/** Writes about `megabytes` MB of rows, each commit small, as requests do. */
function write(vault: TestVault, megabytes: number) {
  // SQLite's own (vitest.postgres.config.ts, SQLITE_ONLY): the vault's connection is there.
  const sqlite = vault.ctx.database.sqlite!;
  sqlite.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, data BLOB)');
  const insert = sqlite.prepare('INSERT INTO filler (data) VALUES (?)');
  const row = Buffer.alloc(8000, 7);
  for (let i = 0; i < megabytes * 128; i++) insert.run(row);
}

describe('background checkpoints', () => {
  it('keep commits from copying the log into the database, and copy it within seconds in a worker', async () => {
    vault = createTestVault();
    const file = vault.config.databasePath;
    const checkpoints = startBackgroundCheckpoints(vault.ctx.database.sqlite!, file);
    try {
      const before = fs.statSync(file).size;
      write(vault, 8); // twice what makes SQLite checkpoint inside a commit by default
      expect(fs.statSync(file).size).toBe(before);
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(8_000_000);
      // The worker's checkpoint copies page by page: wait until all of it is in.
      for (let i = 0; i < 50 && fs.statSync(file).size <= before + 8_000_000; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(fs.statSync(file).size).toBeGreaterThan(before + 8_000_000);
    } finally {
      await checkpoints.stop();
    }
  });

  it('hands checkpoints back to SQLite when stopped', async () => {
    vault = createTestVault();
    const file = vault.config.databasePath;
    const checkpoints = startBackgroundCheckpoints(vault.ctx.database.sqlite!, file);
    await checkpoints.stop();
    const before = fs.statSync(file).size;
    write(vault, 8);
    expect(fs.statSync(file).size).toBeGreaterThan(before);
  });
});

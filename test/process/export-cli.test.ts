import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultExportSchema } from '../../contract/export.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { createContext } from '../../src/context.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { root } from '../helpers/process.ts';
import { tempConfig } from '../helpers/vault.ts';

// On PostgreSQL the vault has its own database, which the command line is pointed at.
const postgres = testDatabase();
const databaseEnv: Record<string, string> = postgres ? { VAULT_DATABASE_URL: postgres.url } : {};
const config = tempConfig(databaseEnv);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-export-cli-'));

beforeAll(async () => {
  const ctx = createContext(config, postgres ? { beforeMigrating: postgres.create } : {});
  const owner = await ctx.users.insert({
    username: 'cli_exporter',
    fullName: 'Cli Exporter',
    email: 'cli@example.com',
    role: 'USER',
    passwordHash: await hashPassword('cli-exporter-password'),
  });
  await ctx.beverages.create(owner, { name: 'Ardbeg 10', type: 'WHISKEY' });
  await ctx.beverages.create(owner, { name: 'Pictured', type: 'BEER' }, await jpeg(320, 240));
  await ctx.close();
});
afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(config.dataDir, { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** `npm run vault -- …` as a separate process in `cwd`; resolves with its outcome either way. */
async function vault(args: string[], cwd = root) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(root, 'src/cli.ts'), ...args],
      {
        cwd,
        env: { ...process.env, VAULT_DATA_DIR: config.dataDir, ...databaseEnv },
        encoding: 'utf8',
      },
    );
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run vault -- export', () => {
  it('writes the vault of a user to the file named by --out', async () => {
    const out = path.join(workDir, 'mine.zip');
    const result = await vault(['export', '--username', 'cli_exporter', '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^Exported 2 entries of cli_exporter to .*mine\.zip \(\d+\.\d MB\)\n$/,
    );
    const files = await unzip(fs.readFileSync(out));
    const data = vaultExportSchema.parse(JSON.parse(files.get('entries.json')!.toString('utf8')));
    expect(data.entries.map((e) => e.name)).toEqual(['Ardbeg 10', 'Pictured']);
    expect(files.get(data.entries[1]!.photo!)!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(fs.readdirSync(workDir)).toEqual(['mine.zip']);
  });

  it('names the file for the user and the day in the current folder when --out is left out', async () => {
    const here = fs.mkdtempSync(path.join(workDir, 'here-'));
    const result = await vault(['export', '--username', 'cli_exporter'], here);
    expect(result.status).toBe(0);
    const day = new Date().toISOString().slice(0, 10);
    expect(fs.readdirSync(here)).toEqual([`vault-cli_exporter-${day}.zip`]);
  });

  it('explains a refusal in one line, without a stack trace, and leaves no file', async () => {
    const before = fs.readdirSync(workDir);
    const unknown = await vault(['export', '--username', 'ghost_user', '--out', 'x.zip']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe('No user named ghost_user');
    const missing = await vault(['export']);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe('export needs --username NAME');
    const nowhere = path.join(workDir, 'no-such-folder', 'x.zip');
    const unwritable = await vault(['export', '--username', 'cli_exporter', '--out', nowhere]);
    expect(unwritable.status).toBe(1);
    expect(unwritable.stderr).toMatch(/^Could not write .*x\.zip: ENOENT/);
    expect(unwritable.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(fs.readdirSync(workDir)).toEqual(before);
  });
});

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { json } from '../helpers/json.ts';
import { freePort, processDatabase, root, startVaultProcess } from '../helpers/process.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-process-'));
const database = await processDatabase(dataDir);
afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `node src/main.ts` on the shared data directory and resolves once it listens. */
const startServer = (env: Record<string, string>) =>
  startVaultProcess({ VAULT_DATA_DIR: dataDir, ...database.env, ...env });

describe('the server process', () => {
  it('creates the first admin with a generated password printed once, and stops cleanly on SIGTERM', async () => {
    const { child, port, output, exited } = await startServer({ VAULT_ADMIN_PASSWORD: '' });
    const match = /Username: '(\w+)'\s+Password: '([^']+)'/.exec(output());
    expect(match?.[1]).toBe('admin');
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: match![2] }),
    });
    expect(res.status).toBe(200);
    expect((await json(res)).user.role).toBe('ADMIN');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('shutting down');
  });

  it('does not create another admin or print a password on the next start', async () => {
    const { child, output, exited } = await startServer({ VAULT_ADMIN_PASSWORD: '' });
    expect(output()).not.toContain('Password:');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses to start with a bad setting and names the variable', () => {
    const result = spawnSync(process.execPath, ['src/main.ts'], {
      cwd: root,
      env: { ...process.env, VAULT_DATA_DIR: dataDir, VAULT_ORIGIN: 'ftp://vault.example' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('VAULT_ORIGIN');
  });

  it('refuses a common first-admin password with a message naming the variable', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-process-'));
    const env = { VAULT_DATA_DIR: empty, VAULT_ADMIN_PASSWORD: 'password' };
    try {
      const result = spawnSync(process.execPath, ['src/main.ts'], {
        cwd: root,
        env: { ...process.env, ...env, PORT: String(await freePort()), HOST: '127.0.0.1' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        'Invalid configuration:\n  VAULT_ADMIN_PASSWORD: This password is too common. Choose one that is harder to guess.',
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the command line', () => {
  const vault = (...args: string[]) =>
    spawnSync(process.execPath, ['src/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, VAULT_DATA_DIR: dataDir, ...database.env },
      encoding: 'utf8',
    });

  it('creates a user and prints a generated password once', () => {
    const result = vault(
      'create-user',
      '--username',
      'cli_user',
      '--full-name',
      'Cli User',
      '--email',
      'cli@example.com',
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Created user cli_user\nPassword: \S{20}/);
  });

  it('resets a password with a given one', () => {
    const result = vault('reset-password', '--username', 'cli_user', '--password', 'reset-by-cli');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Reset the password of cli_user');
  });

  it('explains a refusal without a stack trace', () => {
    const taken = vault(
      'create-user',
      '--username',
      'cli_user',
      '--full-name',
      'X',
      '--email',
      'x@example.com',
    );
    expect(taken.status).toBe(1);
    expect(taken.stderr.trim()).toBe('The username cli_user is already taken');
    const common = vault('reset-password', '--username', 'cli_user', '--password', '12345678');
    expect(common.status).toBe(1);
    expect(common.stderr.trim()).toBe(
      'This password is too common. Choose one that is harder to guess.',
    );
    const unknown = vault('reset-password', '--username', 'ghost_user');
    expect(unknown.stderr.trim()).toBe('No user named ghost_user');
    const badFlag = vault('create-user', '--nope');
    expect(badFlag.status).toBe(1);
    expect(badFlag.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMON_PASSWORD, isCommonPassword } from '../../src/auth/common-passwords.ts';
import { generatePassword } from '../../src/auth/passwords.ts';
import { runCli } from '../../src/cli.ts';
import { ConfigError } from '../../src/config.ts';
import { ensureFirstAdmin } from '../../src/users/first-admin.ts';
import { json } from '../helpers/json.ts';
import { ADMIN_PASSWORD, createTestVault, type TestVault } from '../helpers/vault.ts';

const COMMON = ['password', '12345678', ' '.repeat(10), 'Password1', 'qwertyuiop', 'iloveyou1'];

let vault: TestVault;
let adminCookie: string;

beforeAll(async () => {
  vault = createTestVault();
  await vault.createUser({ username: 'admin', password: ADMIN_PASSWORD, role: 'ADMIN' });
  adminCookie = await vault.login('admin', ADMIN_PASSWORD);
});
afterAll(() => vault.close());

const countUsers = () =>
  vault.ctx.database.database.prepare('select count(*) n from users').pluck<number>().get();

function patchMe(cookie: string, fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return vault.request('/api/users/me', { method: 'PATCH', body, cookie });
}

describe('the common-password rule', () => {
  it.each(COMMON)('refuses %j', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it('accepts generated passwords and passphrases', () => {
    for (let i = 0; i < 200; i++) expect(isCommonPassword(generatePassword())).toBe(false);
    for (const password of [ADMIN_PASSWORD, 'brand-new-password', 'hazel-password-1']) {
      expect(isCommonPassword(password)).toBe(false);
    }
  });
});

describe('setting a common password', () => {
  it.each(COMMON)('is refused with 400 when an admin creates a user with %j', async (password) => {
    const before = await countUsers();
    const res = await vault.postJson(
      '/api/users',
      { username: 'newbie', fullName: 'New Bie', email: 'n@example.com', password, role: 'USER' },
      adminCookie,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: COMMON_PASSWORD });
    expect(await countUsers()).toBe(before);
  });

  it('keeps the length message for a short password', async () => {
    const res = await vault.postJson(
      '/api/users',
      { username: 'newbie', fullName: 'New Bie', email: 'n@example.com', password: '1234' },
      adminCookie,
    );
    expect(await json(res)).toEqual({ message: 'Password must be at least 8 characters long' });
  });

  it('is refused when an admin resets a password, which changes nothing', async () => {
    const bob = await vault.createUser({ username: 'bob' });
    const cookie = await vault.login('bob', bob.password);
    const res = await vault.postJson(
      `/api/users/${bob.id}`,
      { password: '12345678' },
      adminCookie,
      'PATCH',
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: COMMON_PASSWORD });
    expect((await vault.ctx.users.findById(bob.id))!.passwordHash).toBe(bob.passwordHash);
    expect((await vault.request('/api/auth/me', { cookie })).status).toBe(200);
  });

  it('is refused when users change their own password, which keeps the old one', async () => {
    const carol = await vault.createUser({ username: 'carol' });
    const cookie = await vault.login('carol', carol.password);
    const res = await patchMe(cookie, { currentPassword: carol.password, newPassword: 'password' });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: COMMON_PASSWORD });
    await expect(vault.login('carol', carol.password)).resolves.toBeTruthy();
    const short = await patchMe(cookie, { currentPassword: carol.password, newPassword: 'pass' });
    expect(await json(short)).toEqual({
      message: 'New password must be at least 8 characters long',
    });
  });

  it('is refused by the command line for create-user and reset-password', async () => {
    // The vault's own database: its data folder, or its PostgreSQL database when it has one.
    const { dataDir, databaseUrl } = vault.config;
    const env = {
      VAULT_DATA_DIR: dataDir,
      ...(databaseUrl && { VAULT_DATABASE_URL: databaseUrl }),
    };
    const quiet = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const create = [
        'create-user',
        '--username=dora',
        '--full-name=Dora',
        '--email=dora@example.com',
        '--password=12345678',
      ];
      await expect(runCli(create, env)).rejects.toThrow(COMMON_PASSWORD);
      expect(await vault.ctx.users.findByUsername('dora')).toBeUndefined();
      const before = (await vault.ctx.users.findByUsername('admin'))!.passwordHash;
      await expect(
        runCli(['reset-password', '--username=admin', `--password=${' '.repeat(10)}`], env),
      ).rejects.toThrow(COMMON_PASSWORD);
      expect((await vault.ctx.users.findByUsername('admin'))!.passwordHash).toBe(before);
      expect(quiet).not.toHaveBeenCalled();
    } finally {
      quiet.mockRestore();
    }
  });

  it('stops the first start with a configuration error naming VAULT_ADMIN_PASSWORD', async () => {
    const fresh = createTestVault({ env: { VAULT_ADMIN_PASSWORD: 'password' } });
    try {
      const start = ensureFirstAdmin(fresh.ctx.users, fresh.ctx.userAdmin, {
        username: 'admin',
        password: fresh.config.adminPassword,
        email: 'admin@example.com',
      });
      await expect(start).rejects.toThrow(ConfigError);
      await expect(start).rejects.toThrow(`VAULT_ADMIN_PASSWORD: ${COMMON_PASSWORD}`);
      expect(await fresh.ctx.users.count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});

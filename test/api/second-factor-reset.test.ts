import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';
import { json } from '../helpers/json.ts';
import { signInReauthenticated, totpCode } from '../helpers/second-factor.ts';
import { createSoftAuthenticator } from '../helpers/soft-authenticator.ts';

let vault: TestVault;
const clock = Date.now();

beforeAll(() => {
  vault = createTestVault({ now: () => clock });
});
afterAll(() => vault.close());

const cli = async (args: string[]) => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    // The vault's own database: its data folder, or its PostgreSQL database when it has one.
    const { dataDir, databaseUrl } = vault.config;
    const env = {
      VAULT_DATA_DIR: dataDir,
      ...(databaseUrl && { VAULT_DATABASE_URL: databaseUrl }),
    };
    const code = await runCli(args, env);
    return { code, out: log.mock.calls.flat().join('\n'), err: error.mock.calls.flat().join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
};

const passwordStep = async (username: string, password: string) =>
  json(await vault.postJson('/api/auth/login', { username, password }));

describe('the reset-second-factor command', () => {
  it('turns off the authenticator app so the password alone signs in again', async () => {
    const user = await vault.createUser({ username: 'lost_phone' });
    const cookie = await signInReauthenticated(vault, user);
    const { secret } = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    await vault.postJson('/api/totp/verify', { token: totpCode(secret, clock) }, cookie);
    expect((await passwordStep(user.username, user.password)).requiresTotp).toBe(true);

    const { code, out } = await cli(['reset-second-factor', '--username', user.username]);
    expect(code).toBe(0);
    expect(out).toMatch(/lost_phone/);
    const body = await passwordStep(user.username, user.password);
    expect(body.requiresTotp).toBeUndefined();
    expect(body.user.totpEnabled).toBe(false);
    const left = (await vault.ctx.database.database
      .prepare('select count(*) n from backup_codes where user_id = ?')
      .get(user.id)) as { n: number };
    expect(left.n).toBe(0);
  });

  it('removes every security key of the user', async () => {
    const user = await vault.createUser({ username: 'lost_key' });
    const cookie = await signInReauthenticated(vault, user);
    const options = await json(
      await vault.postJson('/api/webauthn/registration/options', {}, cookie),
    );
    const response = createSoftAuthenticator(vault.origin).register(options);
    await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...response, nickname: null },
      cookie,
    );
    expect((await passwordStep(user.username, user.password)).requiresWebAuthn).toBe(true);

    expect((await cli(['reset-second-factor', '--username', user.username])).code).toBe(0);
    expect(await vault.ctx.webauthn.list(user.id)).toEqual([]);
    const body = await passwordStep(user.username, user.password);
    expect(body.user.webauthnEnabled).toBe(false);
  });

  it('fails with a message for an unknown user', async () => {
    await expect(cli(['reset-second-factor', '--username', 'nobody_here'])).rejects.toThrow(
      'No user named nobody_here',
    );
  });
});

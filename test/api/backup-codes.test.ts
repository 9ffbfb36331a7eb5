import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBackupCode } from '../../src/auth/totp.ts';
import { cookieFrom, enableTotp } from '../helpers/second-factor.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let clock = Date.now();
let counter = 0;

beforeAll(() => {
  vault = createTestVault({ now: () => clock });
});
afterAll(() => vault.close());

/** A user with the authenticator app on and the backup codes it was given. */
async function userWithTotp() {
  const user = await vault.createUser({ username: `codes_user_${++counter}` });
  const { backupCodes } = await enableTotp(vault, user, clock);
  clock += 30_000;
  return { user, backupCodes };
}

/** The password step, then a backup code; answers the status of the second step. */
async function signInWithBackupCode(user: { username: string; password: string }, code: string) {
  const first = await vault.postJson('/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  const pending = cookieFrom(first, 'vault_pending');
  return (await vault.postJson('/api/auth/login/totp', { token: code, backup: true }, pending))
    .status;
}

describe('backup codes', () => {
  it('carry 125 random bits: 25 symbols of a 32-symbol alphabet in five groups', () => {
    const codes = Array.from({ length: 2000 }, generateBackupCode);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{5}(-[A-HJ-NP-Z2-9]{5}){4}$/);
    // Every one of the 32 symbols turns up in every position.
    const plain = codes.map((c) => c.replace(/-/g, ''));
    for (let i = 0; i < 25; i++) expect(new Set(plain.map((c) => c[i])).size).toBe(32);
  });

  it('sign in only whole: the first twelve symbols of a code are refused', async () => {
    const { user, backupCodes } = await userWithTotp();
    const prefix = backupCodes[0]!.replace(/-/g, '').slice(0, 12);
    expect(await signInWithBackupCode(user, prefix)).toBe(401);
    expect(await signInWithBackupCode(user, backupCodes[0]!)).toBe(200);
  });

  it('of the former 12-symbol kind keep working once each until replaced', async () => {
    const { user } = await userWithTotp();
    const legacy = 'ABCD-EFGH-JKLM';
    await vault.ctx.database.database
      .prepare('insert into backup_codes (user_id, code_hash, created_at) values (?, ?, ?)')
      .run(user.id, createHash('sha256').update('ABCDEFGHJKLM').digest('hex'), clock);
    expect(await signInWithBackupCode(user, legacy.toLowerCase())).toBe(200);
    expect(await signInWithBackupCode(user, legacy)).toBe(401);
  });
});

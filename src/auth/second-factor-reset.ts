import type { Database } from '../db/database.ts';
import type { UserRow } from '../db/schema/index.ts';
import { notFound } from '../domain-error.ts';
import { createUserRepository } from '../users/repository.ts';
import { createSecondFactorRepository } from './second-factor-repository.ts';

/**
 * The way back in for someone who lost every second factor (the last admin included): removes
 * all security keys, the authenticator app and its backup codes, and pending logins, so that
 * the password alone signs in again. Only the command line offers it (`reset-second-factor`).
 */
export function resetSecondFactors(db: Database, username: string): Promise<UserRow> {
  const users = createUserRepository(db);
  const repo = createSecondFactorRepository(db);
  return repo.transaction(async () => {
    const user = await users.findByUsername(username);
    if (!user) throw notFound(`No user named ${username}`);
    await repo.deleteAllForUser(user.id);
    return (await users.update(user.id, { webauthnEnabled: false, totpEnabled: false })) ?? user;
  });
}

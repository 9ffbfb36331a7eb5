import type { Db } from '../db/client.ts';
import type Database from 'better-sqlite3';
import type { UserRow } from '../db/schema/index.ts';
import { notFound } from '../domain-error.ts';
import { createUserRepository } from '../users/repository.ts';
import { createSecondFactorRepository } from './second-factor-repository.ts';

/**
 * The way back in for someone who lost every second factor (the last admin included): removes
 * all security keys, the authenticator app and its backup codes, and pending logins, so that
 * the password alone signs in again. Only the command line offers it (`reset-second-factor`).
 */
export function resetSecondFactors(db: Db, sqlite: Database.Database, username: string): UserRow {
  const users = createUserRepository(db);
  const repo = createSecondFactorRepository(db, sqlite);
  return repo.transaction(() => {
    const user = users.findByUsername(username);
    if (!user) throw notFound(`No user named ${username}`);
    repo.deleteAllForUser(user.id);
    return users.update(user.id, { webauthnEnabled: false, totpEnabled: false }) ?? user;
  });
}

import { COMMON_PASSWORD, isCommonPassword } from '../auth/common-passwords.ts';
import { generatePassword } from '../auth/passwords.ts';
import { ConfigError } from '../config.ts';
import type { UserRepository } from './repository.ts';
import type { UserService } from './service.ts';

/**
 * On a start with no users, creates the first admin. Returns the generated password when none
 * was configured, so the caller can print it once.
 */
export async function ensureFirstAdmin(
  users: UserRepository,
  service: UserService,
  options: { username: string; password: string | undefined; email: string },
): Promise<{ username: string; generatedPassword: string | undefined } | undefined> {
  if ((await users.count()) > 0) return undefined;
  // Checked only when it is used: a vault that has users does not load the dictionaries.
  if (options.password !== undefined && isCommonPassword(options.password)) {
    throw new ConfigError(`Invalid configuration:\n  VAULT_ADMIN_PASSWORD: ${COMMON_PASSWORD}`);
  }
  const generatedPassword = options.password === undefined ? generatePassword() : undefined;
  await service.create(
    {
      username: options.username,
      fullName: 'Vault Admin',
      email: options.email,
      password: options.password ?? generatedPassword!,
      role: 'ADMIN',
    },
    'known',
  );
  return { username: options.username, generatedPassword };
}

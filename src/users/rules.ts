import { COMMON_PASSWORD, isCommonPassword } from '../auth/common-passwords.ts';
import { badRequest } from '../domain-error.ts';

/**
 * The password rule only the server can check: a password in the list of common ones (and their
 * simple variants) is refused. The shape of a password (its length) is the contract's
 * (contract/users.ts), checked before a service is called, so the length message comes first.
 */
export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD);
}

import { hashPassword } from '../auth/passwords.ts';
import type { SessionService } from '../auth/sessions.ts';
import type { Role, UserRow } from '../db/schema/index.ts';
import { conflict, notFound } from '../domain-error.ts';
import type { Transaction } from '../db/transaction.ts';
import type { ProfileActivity } from './profile-activity.ts';
import type { UserRepository } from './repository.ts';
import { refuseCommonPassword } from './rules.ts';
import { isUniqueViolation } from '../db/errors.ts';

export interface NewUser {
  username: string;
  fullName: string;
  email: string;
  password: string;
  role: Role;
}

export interface UserChanges {
  fullName?: string;
  email?: string;
  role?: Role;
  password?: string;
}

/**
 * Account administration: creating users, editing them, resetting passwords. An edit runs in
 * one `transaction`. `profileActivity`: an edited name goes to remote servers as the user's own
 * change does (profile-activity.ts), in the edit's transaction; asked for at the edit, as the
 * outbox is made after this service.
 */
export function createUserService(
  users: UserRepository,
  sessions: SessionService,
  transaction: Transaction,
  profileActivity?: () => Pick<ProfileActivity, 'record'>,
) {
  return {
    list(): Promise<UserRow[]> {
      return users.list();
    },

    /**
     * A new user; a common password is refused (400), a taken username too (409). The first
     * admin's password is checked by its caller (`known`: generated, or refused with a
     * configuration error), so that a first start with a generated one loads no dictionary.
     */
    async create(input: NewUser, password: 'check' | 'known' = 'check'): Promise<UserRow> {
      if (password === 'check') refuseCommonPassword(input.password);
      if (await users.findByUsername(input.username)) {
        throw conflict(`The username ${input.username} is already taken`);
      }
      const passwordHash = await hashPassword(input.password);
      try {
        return await users.insert({
          username: input.username,
          fullName: input.fullName,
          email: input.email,
          role: input.role,
          passwordHash,
        });
      } catch (error) {
        // Another request may have taken the name while the password was being hashed.
        if (isUniqueViolation(error)) {
          throw conflict(`The username ${input.username} is already taken`);
        }
        throw error;
      }
    },

    /** Admin edit. A password reset also ends every session of that user. */
    async update(id: number, changes: UserChanges): Promise<UserRow> {
      if (changes.password !== undefined) refuseCommonPassword(changes.password);
      if (!(await users.findById(id))) throw notFound('User not found');
      const passwordHash =
        changes.password === undefined ? undefined : await hashPassword(changes.password);
      // From here on, one transaction: the last-admin check cannot race.
      return transaction(async () => {
        const user = await users.findById(id);
        if (!user) throw notFound('User not found');
        if (changes.role === 'USER' && user.role === 'ADMIN' && (await users.countAdmins()) <= 1) {
          throw conflict('The last admin cannot be demoted');
        }
        const updated = await users.update(id, {
          ...(changes.fullName !== undefined && { fullName: changes.fullName }),
          ...(changes.email !== undefined && { email: changes.email }),
          ...(changes.role !== undefined && { role: changes.role }),
          ...(passwordHash !== undefined && { passwordHash }),
        });
        if (updated) await profileActivity?.().record(user, updated);
        if (!updated) throw notFound('User not found');
        if (passwordHash !== undefined) await sessions.endAllForUser(id);
        return updated;
      });
    },

    /** Sets a new password and ends every session (CLI and admin reset). */
    async resetPassword(username: string, password: string): Promise<UserRow> {
      const user = await users.findByUsername(username);
      if (!user) throw notFound(`No user named ${username}`);
      return this.update(user.id, { password });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;

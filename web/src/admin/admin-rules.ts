/**
 * The Admin Console's client rules and labels. No DOM or React
 * here, so that they can be unit-tested in Node.
 */
import { ROLES as CONTRACT_ROLES } from '../../../contract/enums.ts';
import type { Role, User } from '../api/types.ts';

export const NO_USERS = 'No users found.';
export const USERNAME_REQUIRED = 'Username is required';
export const FULL_NAME_REQUIRED = 'Full name is required';
export const EMAIL_REQUIRED = 'Email is required';
export const PASSWORD_REQUIRED = 'Password is required';

export const createdNote = (username: string) => `Created user ${username}`;
/** 'Updated alice', or 'Updated alice and reset password' when a password was sent. */
export const updatedNote = (username: string, passwordReset: boolean) =>
  `Updated ${username}${passwordReset ? ' and reset password' : ''}`;

export const ROLES: readonly Role[] = CONTRACT_ROLES;

export type SecondFactor = 'security-key' | 'authenticator-app' | 'none';

/** Which second factor a user has on (only one can be). */
export function secondFactorOf(user: Pick<User, 'webauthnEnabled' | 'totpEnabled'>): SecondFactor {
  if (user.webauthnEnabled) return 'security-key';
  if (user.totpEnabled) return 'authenticator-app';
  return 'none';
}

export const SECOND_FACTOR_LABELS: Record<SecondFactor, string> = {
  'security-key': 'Security key',
  'authenticator-app': 'Authenticator app',
  none: 'None',
};

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export interface NewUserDraft {
  username: string;
  fullName: string;
  email: string;
  password: string;
}

/** Username, full name, email and password are all required. */
export function newUserErrors(draft: NewUserDraft): FieldErrors<keyof NewUserDraft> {
  const errors: FieldErrors<keyof NewUserDraft> = {};
  if (draft.username.trim() === '') errors.username = USERNAME_REQUIRED;
  if (draft.fullName.trim() === '') errors.fullName = FULL_NAME_REQUIRED;
  if (draft.email.trim() === '') errors.email = EMAIL_REQUIRED;
  if (draft.password === '') errors.password = PASSWORD_REQUIRED;
  return errors;
}

export interface UserEditDraft {
  fullName: string;
  email: string;
}

/** The details an edit keeps: a user always has a name and an email. */
export function userEditErrors(draft: UserEditDraft): FieldErrors<keyof UserEditDraft> {
  const errors: FieldErrors<keyof UserEditDraft> = {};
  if (draft.fullName.trim() === '') errors.fullName = FULL_NAME_REQUIRED;
  if (draft.email.trim() === '') errors.email = EMAIL_REQUIRED;
  return errors;
}

/** Users whose username, full name or email contains the filter text (case-insensitive). */
export function filterUsers<T extends Pick<User, 'username' | 'fullName' | 'email'>>(
  users: T[],
  text: string,
): T[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return users;
  return users.filter((user) =>
    [user.username, user.fullName, user.email].some((value) =>
      value.toLowerCase().includes(needle),
    ),
  );
}

/** The registry with `user` in place of its old copy, or added in username order. */
export function upsertUser(users: readonly User[], user: User): User[] {
  return users.some((existing) => existing.id === user.id)
    ? users.map((existing) => (existing.id === user.id ? user : existing))
    : [...users, user].sort((a, b) => (a.username < b.username ? -1 : 1));
}

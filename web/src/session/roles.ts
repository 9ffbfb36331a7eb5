import type { Role, User } from '../api/types.ts';

/** How each role is named on screen. */
export const ROLE_LABELS: Record<Role, string> = {
  USER: 'Vault User',
  ADMIN: 'System Admin',
};

export const isAdmin = (user: Pick<User, 'role'>): boolean => user.role === 'ADMIN';

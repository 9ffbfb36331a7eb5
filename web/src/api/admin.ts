/**
 * The admin's calls: the user registry (GET /users, POST /users,
 * PATCH /users/{id}) and any user's security keys (/webauthn/admin/*). Every call goes through
 * the one API module's `request`, so the parsing and error rules of the API contract hold.
 */
import type { CredentialsChange } from '../../../contract/second-factor.ts';
import { call } from './call.ts';
import { ApiError, INVALID_RESPONSE, request } from './client.ts';
import type { Role, SecurityKeyCredential, User } from './types.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function userOf(data: unknown): User {
  if (isRecord(data) && isRecord(data.user)) return data.user as unknown as User;
  throw new ApiError(INVALID_RESPONSE, 200);
}

/** What the provision-user form sends (every field is required). */
export interface NewUserInput {
  username: string;
  fullName: string;
  email: string;
  password: string;
  role: Role;
}

/** What the manage-user panel sends. The password is a reset, sent only when non-blank. */
export interface UserUpdateInput {
  fullName: string;
  email: string;
  role: Role;
  password?: string;
}

/** The JSON body of PATCH /users/{id}: a blank password is left out, never sent. */
export function userUpdateBody(input: UserUpdateInput): Record<string, string> {
  const body: Record<string, string> = {
    fullName: input.fullName,
    email: input.email,
    role: input.role,
  };
  if (input.password !== undefined && input.password.trim() !== '') body.password = input.password;
  return body;
}

/** GET /users → field users (admin only). */
export async function fetchUsers(): Promise<User[]> {
  const data = await request('/users');
  if (isRecord(data) && Array.isArray(data.users)) return data.users as User[];
  throw new ApiError(INVALID_RESPONSE, 200);
}

/** POST /users with JSON username, fullName, email, password and role → the new user. */
export async function createUser(input: NewUserInput): Promise<User> {
  return userOf(await request('/users', { method: 'POST', json: input }));
}

/** PATCH /users/{id} with JSON fullName, email, role and an optional password → the user. */
export async function updateUser(id: number, input: UserUpdateInput): Promise<User> {
  return userOf(await request(`/users/${id}`, { method: 'PATCH', json: userUpdateBody(input) }));
}

/** GET /webauthn/admin/users/{id}/credentials → that user's security keys. */
export async function fetchUserCredentials(userId: number): Promise<SecurityKeyCredential[]> {
  return (await call('GET /webauthn/admin/users/{id}/credentials', { params: { id: userId } }))
    .credentials;
}

/**
 * DELETE /webauthn/admin/credentials/{id} → the owner's remaining keys and the owner. An admin's
 * own key needs the current password (or one entered in the last five minutes).
 */
export function deleteUserCredential(id: number, password?: string): Promise<CredentialsChange> {
  return call('DELETE /webauthn/admin/credentials/{id}', {
    params: { id },
    json: password ? { password } : {},
  });
}

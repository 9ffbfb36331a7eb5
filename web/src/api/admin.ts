/**
 * The admin's calls: the user registry (GET /users, POST /users,
 * PATCH /users/{id}) and any user's security keys (/webauthn/admin/*). Every call is typed from
 * the route table (./call.ts).
 */
import type { CreateUserBody, UpdateUserBody } from '../../../contract/users.ts';
import type { CredentialsChange } from '../../../contract/second-factor.ts';
import { call } from './call.ts';
import type { SecurityKeyCredential, User } from './types.ts';

/** The JSON body of PATCH /users/{id}: a blank password is left out, never sent. */
export function userUpdateBody(input: UpdateUserBody): UpdateUserBody {
  const { password, ...rest } = input;
  return password != null && password.trim() !== '' ? { ...rest, password } : rest;
}

/** GET /users → every user (admin only). */
export async function fetchUsers(): Promise<User[]> {
  return (await call('GET /users')).users;
}

/** POST /users with username, fullName, email, password and role → the new user. */
export async function createUser(input: CreateUserBody): Promise<User> {
  return (await call('POST /users', { json: input })).user;
}

/** PATCH /users/{id} with fullName, email, role and an optional password reset → the user. */
export async function updateUser(id: number, input: UpdateUserBody): Promise<User> {
  return (await call('PATCH /users/{id}', { params: { id }, json: userUpdateBody(input) })).user;
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

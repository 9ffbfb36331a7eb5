import type { PublicProfile, User } from '../../contract/users.ts';
import type { UserRow } from '../db/schema/index.ts';

/** A user, as the API returns it (the contract's User). */
export type UserDto = User;

let lastOrigin = '';
let lastHost = '';
/** The host of VAULT_ORIGIN (one origin per process: parsed once, not per response). */
function hostOf(origin: string): string {
  if (origin !== lastOrigin) {
    lastHost = new URL(origin).host;
    lastOrigin = origin;
  }
  return lastHost;
}

/** The fediverse handle and actor URL are derived from VAULT_ORIGIN, so they follow it. */
export function presentUser(user: UserRow, origin: string): UserDto {
  const host = hostOf(origin);
  return {
    id: user.id,
    username: user.username,
    fullName: user.fullName,
    email: user.email,
    role: user.role,
    bio: user.bio,
    avatarPath: user.avatarPath,
    createdAt: user.createdAt.toISOString(),
    webauthnEnabled: user.webauthnEnabled,
    totpEnabled: user.totpEnabled,
    activityPubEnabled: user.activityPubEnabled,
    activityPubHandle: user.activityPubEnabled ? `@${user.username}@${host}` : null,
    activityPubActorUrl: user.activityPubEnabled ? `${origin}/users/${user.username}` : null,
    defaultVisibility: user.defaultVisibility,
    approveFollowers: user.approveFollowers,
  };
}

const userJson = new WeakMap<UserRow, string>();

/**
 * presentUser as JSON text, kept per row object. The signed-in user's row comes from a read
 * cache (src/users/repository.ts) that hands out the same object until the database changes,
 * so GET /api/auth/me, the busiest request of the client, serializes it once per change.
 */
export function presentUserJson(user: UserRow, origin: string): string {
  let json = userJson.get(user);
  if (json === undefined) {
    json = JSON.stringify(presentUser(user, origin));
    userJson.set(user, json);
  }
  return json;
}

/** What any signed-in user may see of another: no email, no second-factor state. */
export type PublicProfileDto = PublicProfile;

export function presentPublicProfile(user: UserRow, origin: string): PublicProfileDto {
  // Everything of the full DTO but the private fields.
  const {
    email: _email,
    webauthnEnabled: _w,
    totpEnabled: _t,
    defaultVisibility: _v,
    ...visible
  } = presentUser(user, origin);
  return visible;
}

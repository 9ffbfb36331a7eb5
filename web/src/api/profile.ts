/**
 * The signed-in user's own profile and sessions (PATCH /users/me,
 * GET and DELETE /auth/sessions). Every call is typed from the route table (./call.ts).
 */
import { call } from './call.ts';
import type { SessionInfo, User } from './types.ts';

/** PATCH /users/me with the form's fields → the changed user. */
async function patchMe(form: FormData): Promise<User> {
  return (await call('PATCH /users/me', { form })).user;
}

export interface ProfileChanges {
  fullName: string;
  email: string;
  bio: string;
  /** A new avatar image, if one was chosen. */
  avatar?: File | null;
  /** Remove the stored avatar (ignored when a new one is sent). */
  removeAvatar?: boolean;
}

/**
 * The form data of a details save. fullName and email are sent only when
 * non-blank; the bio is always sent (an empty bio clears it).
 */
export function profileForm(changes: ProfileChanges): FormData {
  const form = new FormData();
  const fullName = changes.fullName.trim();
  const email = changes.email.trim();
  if (fullName) form.set('fullName', fullName);
  if (email) form.set('email', email);
  form.set('bio', changes.bio);
  if (changes.avatar) form.set('avatar', changes.avatar);
  else if (changes.removeAvatar) form.set('removeAvatar', 'true');
  return form;
}

/** PATCH /users/me with the personal details → the changed user. */
export async function updateProfile(changes: ProfileChanges): Promise<User> {
  return patchMe(profileForm(changes));
}

/** PATCH /users/me with only the 'share on the fediverse' switch. */
export async function setFediverseSharing(enabled: boolean): Promise<User> {
  const form = new FormData();
  form.set('activityPubEnabled', String(enabled));
  return patchMe(form);
}

/** PATCH /users/me with currentPassword and newPassword. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<User> {
  const form = new FormData();
  form.set('currentPassword', currentPassword);
  form.set('newPassword', newPassword);
  return patchMe(form);
}

/** GET /auth/sessions: the user's live sessions, most recently used first. */
export async function fetchSessions(): Promise<SessionInfo[]> {
  return (await call('GET /auth/sessions')).sessions;
}

/** DELETE /auth/sessions/{id}: signs that session out. */
export async function endSession(id: string): Promise<void> {
  await call('DELETE /auth/sessions/{id}', { params: { id } });
}

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVG, jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;

beforeAll(() => {
  vault = createTestVault();
});
afterAll(() => vault.close());

let counter = 0;
async function signedInUser(overrides: { fullName?: string } = {}) {
  const username = `person_${++counter}`;
  const row = await vault.createUser({ username, ...overrides });
  const cookie = await vault.login(username, row.password);
  return { row, cookie, username, password: row.password };
}

function patchMe(cookie: string, fields: Record<string, string | Blob>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return vault.request('/api/users/me', { method: 'PATCH', body, cookie });
}

const jpegBlob = async () =>
  new Blob([new Uint8Array(await jpeg(900, 600, { gps: true }))], { type: 'image/jpeg' });
const avatarFiles = () => fs.readdirSync(path.join(vault.config.uploadsDir, 'avatars'));

describe("editing one's own details", () => {
  it('shows in GET /api/auth/me at once, though that answer is kept between requests', async () => {
    const { cookie } = await signedInUser({ fullName: 'Before' });
    const me = async () => (await json(await vault.request('/api/auth/me', { cookie }))).user;
    expect(await me()).toMatchObject({ fullName: 'Before' });
    expect(await me()).toMatchObject({ fullName: 'Before' });
    expect((await patchMe(cookie, { fullName: 'After', bio: 'Quote "two" & <b>' })).status).toBe(
      200,
    );
    expect(await me()).toMatchObject({ fullName: 'After', bio: 'Quote "two" & <b>' });
  });

  it('changes full name, email and bio', async () => {
    const { cookie } = await signedInUser();
    const res = await patchMe(cookie, {
      fullName: 'New Name',
      email: 'new@example.com',
      bio: 'Islay fan.',
    });
    expect(res.status).toBe(200);
    expect((await json(res)).user).toMatchObject({
      fullName: 'New Name',
      email: 'new@example.com',
      bio: 'Islay fan.',
    });
  });

  it('ignores blank full name and email', async () => {
    const { cookie, row } = await signedInUser({ fullName: 'Kept Name' });
    const res = await patchMe(cookie, { fullName: '  ', email: '', bio: 'x' });
    expect(res.status).toBe(200);
    expect((await json(res)).user).toMatchObject({
      fullName: 'Kept Name',
      email: row.email,
      bio: 'x',
    });
  });

  it('accepts a 280-character bio and refuses 281 without changing anything', async () => {
    const { cookie, row } = await signedInUser();
    expect((await patchMe(cookie, { bio: 'b'.repeat(280) })).status).toBe(200);
    const res = await patchMe(cookie, { bio: 'c'.repeat(281), fullName: 'Should Not Stick' });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Bio must be at most 280 characters long' });
    expect(await vault.ctx.users.findById(row.id)).toMatchObject({
      bio: 'b'.repeat(280),
      fullName: row.fullName,
    });
  });

  it('refuses a malformed email', async () => {
    const { cookie } = await signedInUser();
    const res = await patchMe(cookie, { email: 'nope' });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Enter a valid email address' });
  });

  it('switches federation on and shows the fediverse handle', async () => {
    const { cookie, username } = await signedInUser();
    const on = (await json(await patchMe(cookie, { activityPubEnabled: 'true' }))).user;
    expect(on).toMatchObject({
      activityPubEnabled: true,
      activityPubHandle: `@${username}@localhost:8080`,
      activityPubActorUrl: `http://localhost:8080/users/${username}`,
    });
    const off = (await json(await patchMe(cookie, { activityPubEnabled: 'false' }))).user;
    expect(off).toMatchObject({ activityPubEnabled: false, activityPubHandle: null });
  });

  it('refuses anonymous callers', async () => {
    const res = await patchMe('vault_session=nope', { bio: 'x' });
    expect(res.status).toBe(401);
  });
});

describe('avatars', () => {
  it('stores an avatar without metadata, at most 512 pixels, served publicly', async () => {
    const { cookie } = await signedInUser();
    const res = await patchMe(cookie, { avatar: await jpegBlob() });
    expect(res.status).toBe(200);
    const { user } = await json(res);
    expect(user.avatarPath).toMatch(/^media\/avatars\/[a-f0-9]{32}\.jpg$/);
    const served = await vault.request(`/${user.avatarPath}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ width: 512, height: 341 });
    expect(meta.exif).toBeUndefined();
  });

  it('refuses a non-image avatar and keeps the old one', async () => {
    const { cookie, row } = await signedInUser();
    const first = (await json(await patchMe(cookie, { avatar: await jpegBlob() }))).user.avatarPath;
    const before = avatarFiles().length;
    const res = await patchMe(cookie, { avatar: new Blob([SVG], { type: 'image/svg+xml' }) });
    expect(res.status).toBe(415);
    expect(await json(res)).toEqual({
      message: 'The avatar must be a JPEG, PNG, WebP or AVIF image',
    });
    expect((await vault.ctx.users.findById(row.id))!.avatarPath).toBe(first);
    expect(avatarFiles().length).toBe(before);
  });

  it('deletes the old file when the avatar is replaced or removed', async () => {
    const { cookie } = await signedInUser();
    const first = (await json(await patchMe(cookie, { avatar: await jpegBlob() }))).user.avatarPath;
    const second = (await json(await patchMe(cookie, { avatar: await jpegBlob() }))).user
      .avatarPath;
    expect(avatarFiles()).not.toContain(path.basename(first));
    const removed = (await json(await patchMe(cookie, { removeAvatar: 'true' }))).user;
    expect(removed.avatarPath).toBeNull();
    expect(avatarFiles()).not.toContain(path.basename(second));
  });
});

describe('changing the password', () => {
  it('needs the current password', async () => {
    const { cookie } = await signedInUser();
    const res = await patchMe(cookie, { newPassword: 'a-new-password' });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Current password is required' });
  });

  it('needs a new password of at least 8 characters', async () => {
    const { cookie, password } = await signedInUser();
    const res = await patchMe(cookie, { currentPassword: password, newPassword: 'short' });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'New password must be at least 8 characters long' });
  });

  it('refuses a wrong current password and keeps the old one', async () => {
    const { cookie, username, password } = await signedInUser();
    const res = await patchMe(cookie, {
      currentPassword: 'not-my-password',
      newPassword: 'a-new-password',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Current password is incorrect' });
    await expect(vault.login(username, password)).resolves.toBeTruthy();
  });

  it('changes it, keeps this session and ends the others', async () => {
    const { cookie, username, password } = await signedInUser();
    const other = await vault.login(username, password);
    const res = await patchMe(cookie, {
      currentPassword: password,
      newPassword: 'a-brand-new-password',
    });
    expect(res.status).toBe(200);
    expect((await vault.request('/api/auth/me', { cookie })).status).toBe(200);
    expect((await vault.request('/api/auth/me', { cookie: other })).status).toBe(401);
    await expect(vault.login(username, 'a-brand-new-password')).resolves.toBeTruthy();
    expect((await vault.postJson('/api/auth/login', { username, password })).status).toBe(401);
  });
});

describe('sessions', () => {
  it("lists the user's live sessions with the current one marked, and ends another", async () => {
    const { cookie, username, password } = await signedInUser();
    const other = await vault.login(username, password);
    const res = await vault.request('/api/auth/sessions', { cookie });
    expect(res.status).toBe(200);
    const { sessions } = await json(res);
    expect(sessions).toHaveLength(2);
    const current = sessions.find((s: { current: boolean }) => s.current);
    expect(new Date(current.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(JSON.stringify(sessions)).not.toContain(cookie.split('=')[1]);
    const otherSession = sessions.find((s: { current: boolean }) => !s.current);
    const ended = await vault.request(`/api/auth/sessions/${otherSession.id}`, {
      method: 'DELETE',
      cookie,
    });
    expect(ended.status).toBe(204);
    expect((await vault.request('/api/auth/me', { cookie: other })).status).toBe(401);
    expect((await vault.request('/api/auth/me', { cookie })).status).toBe(200);
  });

  it("cannot end another user's session", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const { sessions } = await json(
      await vault.request('/api/auth/sessions', { cookie: b.cookie }),
    );
    const res = await vault.request(`/api/auth/sessions/${sessions[0].id}`, {
      method: 'DELETE',
      cookie: a.cookie,
    });
    expect(res.status).toBe(404);
    expect((await vault.request('/api/auth/me', { cookie: b.cookie })).status).toBe(200);
  });
});

describe('public profiles', () => {
  it("shows another user's profile without private fields", async () => {
    const viewer = await signedInUser();
    const subject = await signedInUser({ fullName: 'Public Person' });
    await patchMe(subject.cookie, { bio: 'Hello there' });
    const res = await vault.request(`/api/users/profiles/${subject.username}`, {
      cookie: viewer.cookie,
    });
    expect(res.status).toBe(200);
    const { user } = await json(res);
    expect(user).toMatchObject({
      username: subject.username,
      fullName: 'Public Person',
      bio: 'Hello there',
    });
    expect(user.createdAt).toMatch(/^\d{4}-/);
    expect(user).not.toHaveProperty('email');
    expect(user).not.toHaveProperty('totpEnabled');
  });

  it('answers 404 with a message for an unknown user', async () => {
    const viewer = await signedInUser();
    const res = await vault.request('/api/users/profiles/nobody_here', { cookie: viewer.cookie });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Profile not found.' });
  });

  it('is for signed-in users only', async () => {
    expect((await vault.request('/api/users/profiles/person_1')).status).toBe(401);
  });
});

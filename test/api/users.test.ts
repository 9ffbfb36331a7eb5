import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestVault, type TestVault } from '../helpers/vault.ts';
import { json } from '../helpers/json.ts';

let vault: TestVault;
let adminCookie: string;
let userCookie: string;
let adminId: number;

beforeAll(async () => {
  vault = createTestVault();
  const admin = await vault.ctx.userAdmin.create({
    username: 'admin',
    fullName: 'Vault Admin',
    email: 'admin@localhost',
    password: ADMIN_PASSWORD,
    role: 'ADMIN',
  });
  adminId = admin.id;
  const alice = await vault.createUser({ username: 'alice' });
  adminCookie = await vault.login('admin', ADMIN_PASSWORD);
  userCookie = await vault.login('alice', alice.password);
});
afterAll(() => vault.close());

const newUser = (overrides: Record<string, unknown> = {}) => ({
  username: 'bob_1',
  fullName: 'Bob Brewer',
  email: 'bob@example.com',
  password: 'bob-password',
  role: 'USER',
  ...overrides,
});

const countUsers = () =>
  vault.ctx.database.database.prepare('select count(*) n from users').pluck<number>().get();

describe('admin-only routes', () => {
  it.each([
    ['GET', '/api/users', undefined],
    ['POST', '/api/users', newUser()],
    ['PATCH', '/api/users/1', { fullName: 'X' }],
  ])('refuse %s %s to anonymous callers with 401', async (method, path, body) => {
    const res = body
      ? await vault.postJson(path, body, undefined, method)
      : await vault.request(path, { method });
    expect(res.status).toBe(401);
    expect(await json(res)).toHaveProperty('message');
  });

  it.each([
    ['GET', '/api/users', undefined],
    ['POST', '/api/users', newUser()],
    ['PATCH', '/api/users/1', { role: 'USER' }],
  ])('refuse %s %s to a plain user with 403', async (method, path, body) => {
    const before = await countUsers();
    const res = body
      ? await vault.postJson(path, body, userCookie, method)
      : await vault.request(path, { method, cookie: userCookie });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ message: 'Only an admin can do that' });
    expect(await countUsers()).toBe(before);
  });
});

describe('listing users', () => {
  it('gives the admin every user without password hashes', async () => {
    const res = await vault.request('/api/users', { cookie: adminCookie });
    expect(res.status).toBe(200);
    const { users } = await json(res);
    expect(users.map((u: { username: string }) => u.username)).toEqual(['admin', 'alice']);
    expect(JSON.stringify(users)).not.toMatch(/password/i);
  });
});

describe('creating users', () => {
  it('creates a user who can then sign in', async () => {
    const res = await vault.postJson(
      '/api/users',
      newUser({ username: 'created_one' }),
      adminCookie,
    );
    expect(res.status).toBe(201);
    const { user } = await json(res);
    expect(user).toMatchObject({ username: 'created_one', fullName: 'Bob Brewer', role: 'USER' });
    await expect(vault.login('created_one', 'bob-password')).resolves.toMatch(/vault_session=/);
  });

  it('creates an admin when asked', async () => {
    const res = await vault.postJson(
      '/api/users',
      newUser({ username: 'second_admin', role: 'ADMIN' }),
      adminCookie,
    );
    expect(res.status).toBe(201);
    expect((await json(res)).user.role).toBe('ADMIN');
  });

  it.each([
    [
      'an uppercase username',
      { username: 'Bob' },
      'Username must be 3 to 30 characters: lowercase letters, digits or underscores',
    ],
    [
      'a two-letter username',
      { username: 'bo' },
      'Username must be 3 to 30 characters: lowercase letters, digits or underscores',
    ],
    [
      'a 31-letter username',
      { username: 'b'.repeat(31) },
      'Username must be 3 to 30 characters: lowercase letters, digits or underscores',
    ],
    [
      'a username with a dot',
      { username: 'bob.b' },
      'Username must be 3 to 30 characters: lowercase letters, digits or underscores',
    ],
    ['a missing username', { username: undefined }, 'Username is required'],
    ['a blank full name', { fullName: '   ' }, 'Full name is required'],
    ['a bad email', { email: 'not-an-email' }, 'Enter a valid email address'],
    ['a missing email', { email: undefined }, 'Email is required'],
    ['a short password', { password: 'short' }, 'Password must be at least 8 characters long'],
    ['an unknown role', { role: 'ROOT' }, 'Role must be USER or ADMIN'],
    ['a missing role', { role: undefined }, 'Role must be USER or ADMIN'],
  ])('refuses %s with 400 and changes nothing', async (_, overrides, message) => {
    const before = await countUsers();
    const res = await vault.postJson('/api/users', newUser(overrides), adminCookie);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message });
    expect(await countUsers()).toBe(before);
  });

  it('accepts a 64-character password', async () => {
    const password = 'Violet kites drift over the harbour while gulls argue at dawn!!!';
    expect(password).toHaveLength(64);
    const res = await vault.postJson(
      '/api/users',
      newUser({ username: 'long_pw', password }),
      adminCookie,
    );
    expect(res.status).toBe(201);
    await expect(vault.login('long_pw', password)).resolves.toBeTruthy();
  });

  it('refuses a taken username with 409', async () => {
    const before = await countUsers();
    const res = await vault.postJson('/api/users', newUser({ username: 'alice' }), adminCookie);
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({ message: 'The username alice is already taken' });
    expect(await countUsers()).toBe(before);
  });
});

describe('editing users', () => {
  it('changes name, email and role', async () => {
    const created = await json(
      await vault.postJson('/api/users', newUser({ username: 'edit_me' }), adminCookie),
    );
    const res = await vault.postJson(
      `/api/users/${created.user.id}`,
      { fullName: 'Edited Name', email: 'edited@example.com', role: 'ADMIN' },
      adminCookie,
      'PATCH',
    );
    expect(res.status).toBe(200);
    expect((await json(res)).user).toMatchObject({
      fullName: 'Edited Name',
      email: 'edited@example.com',
      role: 'ADMIN',
    });
  });

  it("resets a password, which ends that user's sessions", async () => {
    await vault.postJson('/api/users', newUser({ username: 'reset_me' }), adminCookie);
    const id = (await vault.ctx.users.findByUsername('reset_me'))!.id;
    const cookie = await vault.login('reset_me', 'bob-password');
    const res = await vault.postJson(
      `/api/users/${id}`,
      { password: 'brand-new-password' },
      adminCookie,
      'PATCH',
    );
    expect(res.status).toBe(200);
    expect((await vault.request('/api/auth/me', { cookie })).status).toBe(401);
    await expect(vault.login('reset_me', 'brand-new-password')).resolves.toBeTruthy();
    const old = await vault.postJson('/api/auth/login', {
      username: 'reset_me',
      password: 'bob-password',
    });
    expect(old.status).toBe(401);
  });

  it('ignores a blank password and keeps the sessions', async () => {
    const id = (await vault.ctx.users.findByUsername('alice'))!.id;
    const res = await vault.postJson(
      `/api/users/${id}`,
      { fullName: 'Alice A', password: '  ' },
      adminCookie,
      'PATCH',
    );
    expect(res.status).toBe(200);
    expect((await vault.request('/api/auth/me', { cookie: userCookie })).status).toBe(200);
  });

  it('refuses to demote the last admin', async () => {
    const solo = createTestVault();
    try {
      const admin = await solo.createUser({ username: 'only_admin', role: 'ADMIN' });
      const cookie = await solo.login('only_admin', admin.password);
      const res = await solo.postJson(`/api/users/${admin.id}`, { role: 'USER' }, cookie, 'PATCH');
      expect(res.status).toBe(409);
      expect(await json(res)).toEqual({ message: 'The last admin cannot be demoted' });
      expect((await solo.ctx.users.findById(admin.id))!.role).toBe('ADMIN');
    } finally {
      await solo.close();
    }
  });

  it('lets one of two admins be demoted', async () => {
    const id = (await vault.ctx.users.findByUsername('second_admin'))!.id;
    const res = await vault.postJson(`/api/users/${id}`, { role: 'USER' }, adminCookie, 'PATCH');
    expect(res.status).toBe(200);
    expect((await vault.ctx.users.findById(adminId))!.role).toBe('ADMIN');
  });

  it.each([
    ['an unknown id', '/api/users/99999', { fullName: 'X' }, 404, 'User not found'],
    [
      'a non-numeric id',
      '/api/users/abc',
      { fullName: 'X' },
      400,
      'User id must be a positive integer',
    ],
    ['a bad email', '/api/users/1', { email: 'nope' }, 400, 'Enter a valid email address'],
    ['a bad role', '/api/users/1', { role: 'GOD' }, 400, 'Role must be USER or ADMIN'],
    [
      'a short new password',
      '/api/users/1',
      { password: 'short' },
      400,
      'Password must be at least 8 characters long',
    ],
  ])('refuses %s', async (_, path, body, status, message) => {
    const res = await vault.postJson(path, body, adminCookie, 'PATCH');
    expect(res.status).toBe(status);
    expect(await json(res)).toEqual({ message });
  });
});

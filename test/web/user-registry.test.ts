import { describe, expect, it } from 'vitest';
import { upsertUser } from '../../web/src/admin/admin-rules.ts';
import type { User } from '../../web/src/api/types.ts';

function user(id: number, username: string, overrides: Partial<User> = {}): User {
  return {
    id,
    username,
    fullName: username,
    email: `${username}@example.test`,
    role: 'USER',
    bio: '',
    avatarPath: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    webauthnEnabled: false,
    totpEnabled: false,
    activityPubEnabled: false,
    activityPubHandle: null,
    activityPubActorUrl: null,
    defaultVisibility: 'MEMBERS',
    approveFollowers: false,
    ...overrides,
  };
}

describe('the user registry in the query cache', () => {
  it('puts a changed user in place and a new one in username order', () => {
    const users = [user(1, 'ada'), user(2, 'cyd')];
    const changed = upsertUser(users, user(2, 'cyd', { role: 'ADMIN' }));
    expect(changed.map((u) => [u.username, u.role])).toEqual([
      ['ada', 'USER'],
      ['cyd', 'ADMIN'],
    ]);
    const added = upsertUser(users, user(3, 'bea'));
    expect(added.map((u) => u.username)).toEqual(['ada', 'bea', 'cyd']);
    // The cached list itself is never changed in place.
    expect(users.map((u) => u.username)).toEqual(['ada', 'cyd']);
  });
});

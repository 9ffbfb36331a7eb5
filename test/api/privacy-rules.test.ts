import { describe, expect, it } from 'vitest';
import {
  changedSetting,
  federationChange,
  newSetting,
} from '../../src/beverages/entry-visibility.ts';
import { withVisibility } from '../../web/src/vault/visibility.ts';

// The rules of an entry's visibility setting (src/beverages/entry-visibility.ts) and what the
// entry form sends of it (web/src/vault/visibility.ts), as plain functions.

describe('a new entry’s setting', () => {
  it('takes the owner’s default and federates unless told not to, never when PRIVATE', () => {
    expect(newSetting({}, 'MEMBERS')).toEqual({ visibility: 'MEMBERS', federated: true });
    expect(newSetting({}, 'PRIVATE')).toEqual({ visibility: 'PRIVATE', federated: false });
    expect(newSetting({ visibility: 'FOLLOWERS' }, 'PRIVATE')).toEqual({
      visibility: 'FOLLOWERS',
      federated: true,
    });
    expect(newSetting({ federated: false }, 'MEMBERS').federated).toBe(false);
    expect(newSetting({ visibility: 'PRIVATE', federated: true }, 'MEMBERS').federated).toBe(false);
  });
});

describe('a changed setting', () => {
  const members = { visibility: 'MEMBERS', federated: true } as const;
  const kept = { visibility: 'MEMBERS', federated: false } as const;
  const secret = { visibility: 'PRIVATE', federated: false } as const;

  it('keeps what is not given, stops federating when PRIVATE and federates again when it leaves it', () => {
    expect(changedSetting(members, {})).toEqual(members);
    expect(changedSetting(kept, { visibility: 'FOLLOWERS' })).toEqual({
      visibility: 'FOLLOWERS',
      federated: false,
    });
    expect(changedSetting(members, { visibility: 'PRIVATE', federated: true })).toEqual(secret);
    expect(changedSetting(secret, { visibility: 'MEMBERS' })).toEqual(members);
    expect(changedSetting(secret, { visibility: 'MEMBERS', federated: false })).toEqual(kept);
  });

  it('tells remote servers Update while federated, Delete on leaving, Create on entering, else nothing', () => {
    const followers = { visibility: 'FOLLOWERS', federated: true } as const;
    expect(federationChange(members, followers)).toBe('Update');
    expect(federationChange(members, secret)).toBe('Delete');
    expect(federationChange(members, kept)).toBe('Delete');
    expect(federationChange(secret, members)).toBe('Create');
    expect(federationChange(secret, kept)).toBeNull();
  });
});

describe('what the entry form sends of the setting', () => {
  const base = { visibility: 'MEMBERS', federated: true } as const;
  const sent = (form: FormData) => Object.fromEntries(form.entries());

  it('sends only what differs from the default or the entry, and federated only when offered', () => {
    expect(sent(withVisibility(new FormData(), base, base, true))).toEqual({});
    expect(
      sent(withVisibility(new FormData(), { ...base, visibility: 'PRIVATE' }, base, true)),
    ).toEqual({
      visibility: 'PRIVATE',
    });
    expect(sent(withVisibility(new FormData(), { ...base, federated: false }, base, true))).toEqual(
      {
        federated: 'false',
      },
    );
    expect(
      sent(withVisibility(new FormData(), { ...base, federated: false }, base, false)),
    ).toEqual({});
  });
});

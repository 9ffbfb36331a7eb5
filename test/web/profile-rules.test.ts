import { describe, expect, it } from 'vitest';
import { profileForm } from '../../web/src/api/profile.ts';
import { credentialLabel } from '../../web/src/api/second-factor.ts';
import {
  characterCount,
  clampBio,
  cleanTotpCode,
  describeUserAgent,
  disableTotpError,
  groupSecret,
  passwordChangeError,
} from '../../web/src/profile/rules.ts';

describe('profile rules', () => {
  it('checks a password change in the order the product gives', () => {
    expect(passwordChangeError('', '', '')).toBe('Current password is required');
    expect(passwordChangeError('old', 'seven77', 'seven77')).toBe(
      'New password must be at least 8 characters long',
    );
    expect(passwordChangeError('old', 'eight888', 'eight889')).toBe(
      'New password and confirmation do not match',
    );
    expect(passwordChangeError('old', 'eight888', 'eight888')).toBeNull();
  });

  it('checks turning the authenticator app off: trimmed password of 8, code of 6 digits', () => {
    expect(disableTotpError('  1234567  ', '123456')).toBe(
      'Password must be at least 8 characters long',
    );
    expect(disableTotpError('12345678', '12345')).toBe(
      'Enter the 6-digit code from your authenticator app',
    );
    expect(disableTotpError('12345678', '123456')).toBeNull();
  });

  it('keeps digits only in a code, at most 6', () => {
    expect(cleanTotpCode('12 a3-4567')).toBe('123456');
    expect(cleanTotpCode('abc')).toBe('');
  });

  it('counts the bio in characters and cuts it at 280', () => {
    expect(characterCount('🥃🍷')).toBe(2);
    expect(clampBio('x'.repeat(281))).toHaveLength(280);
    expect([...clampBio('🍺'.repeat(300))]).toHaveLength(280);
    expect(clampBio('short')).toBe('short');
  });

  it('shows the setup secret in groups of 4', () => {
    expect(groupSecret('ABCDEFGHIJKLMNOPQR')).toBe('ABCD EFGH IJKL MNOP QR');
    expect(groupSecret('')).toBe('');
  });

  it('labels a key by its nickname, or the first 8 characters of its id', () => {
    expect(credentialLabel({ nickname: 'Blue key', credentialId: 'abcdefghijkl' })).toBe(
      'Blue key',
    );
    expect(credentialLabel({ nickname: null, credentialId: 'abcdefghijkl' })).toBe('abcdefgh');
    expect(credentialLabel({ nickname: '  ', credentialId: 'abcdefghijkl' })).toBe('abcdefgh');
  });

  it('names browsers of sessions readably', () => {
    expect(
      describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'),
    ).toBe('Firefox on Linux');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      ),
    ).toBe('Safari on macOS');
    expect(describeUserAgent('')).toBe('Unknown browser');
  });

  it('sends fullName and email only when not blank', () => {
    const blank = profileForm({ fullName: '  ', email: '', bio: '' });
    expect([...blank.keys()]).toEqual(['bio']);
    const full = profileForm({
      fullName: ' Hazel ',
      email: 'h@example.com',
      bio: 'Peat.',
      removeAvatar: true,
    });
    expect(Object.fromEntries(full.entries())).toEqual({
      fullName: 'Hazel',
      email: 'h@example.com',
      bio: 'Peat.',
      removeAvatar: 'true',
    });
  });
});

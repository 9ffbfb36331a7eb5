/**
 * The profile page's client rules. No DOM or React here, so that the
 * rules can be unit-tested in Node.
 */

/** The bio holds at most 280 characters. */
export const BIO_MAX_LENGTH = 280;
/** Passwords have at least 8 characters. */
export const PASSWORD_MIN_LENGTH = 8;

export const CURRENT_PASSWORD_REQUIRED = 'Current password is required';
export const NEW_PASSWORD_TOO_SHORT = 'New password must be at least 8 characters long';
export const PASSWORDS_DO_NOT_MATCH = 'New password and confirmation do not match';
export const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters long';
export const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app';
export const AVATAR_NOT_IMAGE = 'The avatar must be an image file';

/** Characters as the server counts them (code points, so an emoji is one). */
export function characterCount(text: string): number {
  return [...text].length;
}

/** The bio as typed, cut at 280 characters: the 281st is refused. */
export function clampBio(text: string): string {
  const characters = [...text];
  return characters.length > BIO_MAX_LENGTH ? characters.slice(0, BIO_MAX_LENGTH).join('') : text;
}

/** The first problem with a password change, or null when it may be sent. */
export function passwordChangeError(
  currentPassword: string,
  newPassword: string,
  confirmation: string,
): string | null {
  if (currentPassword === '') return CURRENT_PASSWORD_REQUIRED;
  if (newPassword.length < PASSWORD_MIN_LENGTH) return NEW_PASSWORD_TOO_SHORT;
  if (newPassword !== confirmation) return PASSWORDS_DO_NOT_MATCH;
  return null;
}

/** An authenticator code as typed: digits only, at most 6. */
export function cleanTotpCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 6);
}

export function isTotpCode(value: string): boolean {
  return /^\d{6}$/.test(value);
}

/** The first problem with turning the authenticator app off, or null. */
export function disableTotpError(password: string, code: string): string | null {
  if (password.trim().length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  if (!isTotpCode(code)) return CODE_REQUIRED;
  return null;
}

/** The setup secret is shown in groups of 4 characters. */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** A short, readable name for a session's browser: 'Firefox on Linux', say. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return 'Unknown browser';
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS/.test(ua)
        ? 'Firefox'
        : /Chrom(e|ium)\/|CriOS/.test(ua)
          ? /HeadlessChrome/.test(ua)
            ? 'Headless Chrome'
            : 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /^curl\//.test(ua)
              ? 'curl'
              : null;
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux|X11/.test(ua)
              ? 'Linux'
              : null;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `A browser on ${os}`;
  return ua.length > 48 ? `${ua.slice(0, 47)}…` : ua;
}

import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1. */
const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable as a value)
const OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** How many password hashes have been verified: lets tests count the slow checks. */
export const passwordVerifications = { count: 0 };

// A hash of a random string, verified against when the username does not exist, so that
// answering "wrong password" and "no such user" takes the same time.
let dummyHash: Promise<string> | undefined;

/** Verifies a password against a stored hash; pass undefined for an unknown user. */
export async function verifyPassword(
  storedHash: string | undefined,
  password: string,
): Promise<boolean> {
  passwordVerifications.count++;
  if (storedHash === undefined) {
    dummyHash ??= hashPassword(crypto.randomUUID());
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** A random password for generated accounts: 20 characters from an unambiguous alphabet. */
export function generatePassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let out = '';
  for (const b of bytes) {
    // Rejection sampling keeps the distribution uniform.
    if (b < 256 - (256 % alphabet.length)) out += alphabet[b % alphabet.length];
    if (out.length === length) break;
  }
  return out.length === length ? out : generatePassword(length);
}

import type { Context } from 'hono';
import { z } from 'zod';
import { ReauthenticationRequired } from '../auth/reauth.ts';
import { readJson } from './body.ts';
import { handleError } from './errors.ts';

/** The current password, optional where a recent re-authentication of the session will do. */
export const currentPassword = z
  .string({ error: 'The password must be text' })
  .max(1024, 'Password is too long')
  .optional()
  // An empty field is no password: the answer then asks for one.
  .transform((v) => (v === '' ? undefined : v));

const passwordOnly = z.object({ password: currentPassword });

/**
 * The optional `{ password }` body of a request that needs no other input. A request without a
 * body (no Content-Type) has no password.
 */
export async function readOptionalPassword(c: Context): Promise<string | undefined> {
  if (!c.req.header('content-type')) return undefined;
  return (await readJson(c, passwordOnly)).password;
}

/**
 * Error handler of the routes that change the second factor: a missing or wrong current password
 * is answered `{ message, reauthenticate: true }` (403); everything else as everywhere.
 */
export function reauthenticationErrors(err: Error, c: Context): Response {
  if (err instanceof ReauthenticationRequired) {
    return c.json({ message: err.message, reauthenticate: true }, 403);
  }
  return handleError(err, c);
}

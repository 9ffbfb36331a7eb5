import type { Context } from 'hono';
import { z } from 'zod';
import { readJson } from './body.ts';

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

import { z } from 'zod';

/**
 * Personal access tokens: a named secret with a scope that lets a script or another tool call
 * /api as its owner with `Authorization: Bearer <secret>` (docs/access-tokens.md).
 *
 *  - `GET /tokens` answers the caller's tokens (`TokenList`), newest first; `POST /tokens`
 *    `CreateTokenBody` answers 201 `CreatedToken`, the only answer that ever holds the secret;
 *    `DELETE /tokens/{id}` revokes at once (204; another user's token: 404, unless an admin).
 *  - `GET /tokens/all` (admins) answers every user's tokens with their owner (`AdminTokenList`).
 *  - All of them need a signed-in session: a token can never list or make tokens.
 */

/** What the secret starts with, so that people and secret scanners recognise it. */
export const TOKEN_PREFIX = 'vault_pat_';

/** The most access tokens one person may have: each is a way in to keep track of. */
export const MAX_TOKENS_PER_USER = 50;

/** The longest token name, in characters. */
export const TOKEN_NAME_MAX_LENGTH = 100;

export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A token as its owner sees it. Dates are ISO 8601; `lastUsedAt` null if never used. */
export const tokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  createdAt: z.string(),
  /** Recorded to the minute: a token used again within a minute keeps the earlier time. */
  lastUsedAt: z.string().nullable(),
  /** null: never expires. */
  expiresAt: z.string().nullable(),
});
export type Token = z.infer<typeof tokenSchema>;

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema) });
export type TokenList = z.infer<typeof tokenListSchema>;

export const createTokenBodySchema = z
  .object({
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(1, { error: 'Name is required' })
      .max(TOKEN_NAME_MAX_LENGTH, {
        error: `Name must be at most ${TOKEN_NAME_MAX_LENGTH} characters`,
      }),
    scope: z.enum(TOKEN_SCOPES, { error: "Scope must be 'read' or 'write'" }),
    /** When the token stops working (ISO 8601 date and time); left out or null: never. */
    expiresAt: z.iso
      .datetime({
        offset: true,
        error: 'Expiry must be a date and time such as 2030-01-31T23:59:59Z',
      })
      .nullish(),
  })
  .strict();
export type CreateTokenBody = z.input<typeof createTokenBodySchema>;

/** The new token and its secret: shown this once, never again. */
export const createdTokenSchema = z.object({
  token: tokenSchema,
  secret: z.string().startsWith(TOKEN_PREFIX),
});
export type CreatedToken = z.infer<typeof createdTokenSchema>;

/** A token as an admin sees it: with its owner, never a secret. */
export const adminTokenSchema = tokenSchema.extend({
  userId: z.number().int(),
  username: z.string(),
});
export type AdminToken = z.infer<typeof adminTokenSchema>;

export const adminTokenListSchema = z.object({ tokens: z.array(adminTokenSchema) });
export type AdminTokenList = z.infer<typeof adminTokenListSchema>;

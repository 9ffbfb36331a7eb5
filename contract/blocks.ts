import { z } from 'zod';

/**
 * Blocks of the caller's (docs/social.md, "Blocks"): a local user by `username`, or a
 * fediverse account by its actor URI (`actorUri`) or handle (`handle`, `@name@host`).
 */

const actorUriSchema = z
  .string({ error: 'actorUri must be text' })
  .max(2000, 'The address is too long')
  .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
    error: 'actorUri must be an http(s) URL',
  });

/** POST /users/blocks: exactly one of `username`, `actorUri`, `handle`. */
export const blockBodySchema = z
  .object({
    username: z
      .string({ error: 'username must be text' })
      .trim()
      .min(1, 'Enter a username')
      .max(100, 'A username is at most 100 characters long')
      .optional(),
    actorUri: actorUriSchema.optional(),
    handle: z
      .string({ error: 'handle must be text' })
      .trim()
      .min(1, 'Enter a handle')
      .max(500, 'A handle is at most 500 characters long')
      .optional(),
  })
  .strict()
  .refine(
    (body) =>
      [body.username, body.actorUri, body.handle].filter((value) => value !== undefined).length ===
      1,
    { error: 'Give exactly one of username, actorUri or handle' },
  );
export type BlockBody = z.infer<typeof blockBodySchema>;

/** One block: a local user (`username`) or a fediverse account (`actorUri`, `handle`). */
export const blockItemSchema = z.object({
  /** For DELETE /users/blocks/{id}. */
  id: z.number().int(),
  username: z.string().nullable(),
  actorUri: z.string().nullable(),
  handle: z.string().nullable(),
  displayName: z.string(),
  createdAt: z.string(),
});
export type BlockItem = z.infer<typeof blockItemSchema>;

/** GET /users/blocks, most recent first. */
export const blockListSchema = z.object({ blocks: z.array(blockItemSchema) });
export type BlockList = z.infer<typeof blockListSchema>;

/** POST /users/blocks answers the block (201 when new, 200 when it already existed). */
export const blockAnswerSchema = z.object({ block: blockItemSchema });

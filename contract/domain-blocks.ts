import { z } from 'zod';

/** A server an admin blocked: its host (with `:port` when the block is for one port only). */
export const domainBlockSchema = z.object({
  id: z.number().int().positive(),
  /** Lowercase host, e.g. 'spam.example' or 'spam.example:8443'; without a port, every port. */
  domain: z.string(),
  /** Why it was blocked, for the admins ('' when none was given). */
  note: z.string(),
  /** ISO date and time (UTC) the block was made. */
  createdAt: z.string(),
});
export type DomainBlock = z.infer<typeof domainBlockSchema>;

/** GET /api/domain-blocks (admins only): the blocked servers, by domain. */
export const domainBlockListSchema = z.object({ domainBlocks: z.array(domainBlockSchema) });
export type DomainBlockList = z.infer<typeof domainBlockListSchema>;

/**
 * POST /api/domain-blocks (admins only) → 201 `{ domainBlock }`. The server checks the domain
 * (400 for a URL, a handle or anything else that is not a host, and for the vault's own host;
 * 409 when it is blocked already); the note is at most 500 characters.
 */
export const createDomainBlockBodySchema = z.object({
  domain: z.string({ error: 'The server is missing.' }).max(300, 'The server name is too long.'),
  note: z.string({ error: 'The note must be text.' }).optional(),
});
export type CreateDomainBlockBody = z.infer<typeof createDomainBlockBodySchema>;

export const createdDomainBlockSchema = z.object({ domainBlock: domainBlockSchema });
export type CreatedDomainBlock = z.infer<typeof createdDomainBlockSchema>;

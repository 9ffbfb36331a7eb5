import type { Hono } from 'hono';
import type { DomainBlock } from '../../contract/domain-blocks.ts';
import type { AppContext } from '../context.ts';
import type { DomainBlockRecord } from '../domain-blocks/repository.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';

const present = (block: DomainBlockRecord): DomainBlock => ({
  id: block.id,
  domain: block.domain,
  note: block.note,
  createdAt: block.createdAt.toISOString(),
});

/**
 * /api/domain-blocks (admins only): the servers the vault refuses to hear from or contact
 * (docs/federation.md, "Domain blocks"). POST blocks one, DELETE /{id} lifts a block.
 */
export function domainBlockRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/domain-blocks');

  on('GET /domain-blocks', async () => ({
    domainBlocks: (await ctx.domainBlocks.list()).map(present),
  }));

  on('POST /domain-blocks', async (_c, { body }) => ({
    domainBlock: present(await ctx.domainBlocks.create(body)),
  }));

  on('DELETE /domain-blocks/{id}', async (c) => {
    await ctx.domainBlocks.remove(idParam(c, 'id', 'Blocked server'));
  });

  return router;
}

import { Hono } from 'hono';
import {
  createDomainBlockBodySchema,
  type CreatedDomainBlock,
  type DomainBlock,
  type DomainBlockList,
} from '../../contract/domain-blocks.ts';
import type { AppContext } from '../context.ts';
import type { DomainBlockRecord } from '../domain-blocks/repository.ts';
import { idParam, readJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { requireAdmin } from '../http/session.ts';

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
  const routes = new Hono<AppEnv>();
  routes.use('*', requireAdmin);

  routes.get('/', (c) => {
    const body: DomainBlockList = { domainBlocks: ctx.domainBlocks.list().map(present) };
    return c.json(body);
  });

  routes.post('/', async (c) => {
    const input = await readJson(c, createDomainBlockBodySchema);
    const body: CreatedDomainBlock = { domainBlock: present(await ctx.domainBlocks.create(input)) };
    return c.json(body, 201);
  });

  routes.delete('/:id', (c) => {
    ctx.domainBlocks.remove(idParam(c, 'id', 'Blocked server'));
    return c.body(null, 204);
  });

  return routes;
}

import type { Hono } from 'hono';
import type { BlockBody } from '../../contract/blocks.ts';
import { INSTANCE_ACTOR } from '../../federation/paths.ts';
import { lookupRemoteActor, parseLookupQuery } from '../../federation/lookup.ts';
import { presentBlock } from '../blocks/present.ts';
import type { BlockTarget } from '../blocks/service.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema/index.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/**
 * The local username an address or handle of this vault names (`{origin}/users/{name}`,
 * `@name@{host}`), or undefined for another server's.
 */
function localName(origin: string, body: BlockBody): string | undefined {
  if (body.actorUri !== undefined) {
    const prefix = `${origin}/users/`;
    const rest = body.actorUri.startsWith(prefix) ? body.actorUri.slice(prefix.length) : '';
    return /^[^/?#]+$/.test(rest) ? decodeURIComponent(rest) : undefined;
  }
  if (body.handle !== undefined) {
    const target = parseLookupQuery(body.handle);
    if (target.kind === 'handle' && target.host === new URL(origin).host.toLowerCase()) {
      return target.name;
    }
  }
  return undefined;
}

/**
 * /api/users/blocks: the caller's blocks (docs/social.md, "Blocks"). A remote account is found
 * as the follow dialog finds it (federation/lookup.ts; a stored one fetched within a day is
 * used as is), signed as the caller when they federate, else as the instance actor.
 */
export function blockRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/users/blocks');

  async function targetOf(user: UserRow, body: BlockBody): Promise<BlockTarget> {
    const username = body.username ?? localName(ctx.config.origin, body);
    if (username !== undefined) return { kind: 'local', username };
    const query = (body.actorUri ?? body.handle)!;
    const known =
      body.actorUri === undefined ? undefined : await ctx.remoteFollows.freshActor(query);
    const identity = user.activityPubEnabled ? user.username : INSTANCE_ACTOR;
    return {
      kind: 'remote',
      actor: known ?? (await lookupRemoteActor(ctx.federation, identity, query)),
    };
  }

  on('GET /users/blocks', async (c) => ({
    blocks: (await ctx.blocks.list(currentUser(c))).map(presentBlock),
  }));

  // 201 for a new block (the table's status); 200 with the block that existed already.
  on('POST /users/blocks', async (c, { body }) => {
    const user = currentUser(c);
    const { block, created } = await ctx.blocks.block(user, await targetOf(user, body));
    return created ? { block: presentBlock(block) } : c.json({ block: presentBlock(block) }, 200);
  });

  on('DELETE /users/blocks/{id}', async (c) => {
    await ctx.blocks.unblock(currentUser(c), idParam(c, 'id', 'Block'));
  });

  return router;
}

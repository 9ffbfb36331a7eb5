/** The blocked servers (/domain-blocks, admins only): list, block one, lift a block. */
import type { DomainBlock } from '../../../contract/domain-blocks.ts';
import { call } from './call.ts';

export type { DomainBlock };

/** GET /domain-blocks → the blocked servers, by domain. */
export async function fetchDomainBlocks(): Promise<DomainBlock[]> {
  return (await call('GET /domain-blocks')).domainBlocks;
}

/** POST /domain-blocks: blocks a server (the server checks and normalises the domain). */
export async function createDomainBlock(domain: string, note: string): Promise<DomainBlock> {
  return (await call('POST /domain-blocks', { json: { domain, note } })).domainBlock;
}

/** DELETE /domain-blocks/{id}. */
export async function deleteDomainBlock(id: number): Promise<void> {
  await call('DELETE /domain-blocks/{id}', { params: { id } });
}

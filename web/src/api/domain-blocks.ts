/** The blocked servers (/domain-blocks, admins only): list, block one, lift a block. */
import type { DomainBlock } from '../../../contract/domain-blocks.ts';
import { ApiError, INVALID_RESPONSE, request } from './client.ts';

export type { DomainBlock };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** GET /domain-blocks → the blocked servers, by domain. */
export async function fetchDomainBlocks(): Promise<DomainBlock[]> {
  const data = await request('/domain-blocks');
  if (isRecord(data) && Array.isArray(data.domainBlocks)) {
    return data.domainBlocks as DomainBlock[];
  }
  throw new ApiError(INVALID_RESPONSE, 200);
}

/** POST /domain-blocks: blocks a server (the server checks and normalises the domain). */
export async function createDomainBlock(domain: string, note: string): Promise<DomainBlock> {
  const data = await request('/domain-blocks', { json: { domain, note } });
  if (isRecord(data) && isRecord(data.domainBlock)) {
    return data.domainBlock as unknown as DomainBlock;
  }
  throw new ApiError(INVALID_RESPONSE, 200);
}

/** DELETE /domain-blocks/{id}. */
export async function deleteDomainBlock(id: number): Promise<void> {
  await request(`/domain-blocks/${id}`, { method: 'DELETE' });
}

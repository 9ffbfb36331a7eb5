import type { BlockItem } from '../../contract/blocks.ts';
import type { BlockRecord } from './repository.ts';

export function presentBlock(record: BlockRecord): BlockItem {
  return {
    id: record.id,
    username: record.username,
    actorUri: record.actorUri,
    handle: record.handle,
    displayName: record.displayName,
    createdAt: record.createdAt.toISOString(),
  };
}

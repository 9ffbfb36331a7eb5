import type { Transaction } from '../db/transaction.ts';
import { badRequest, conflict, notFound } from '../domain-error.ts';
import { logger } from '../logger.ts';
import { normaliseDomain } from './domain.ts';
import { createDomainBlockMatcher, type DomainBlockMatcher } from './matcher.ts';
import type { DomainBlockRecord, DomainBlockRepository } from './repository.ts';

/** The longest note an admin may keep with a block. */
export const MAX_NOTE_LENGTH = 500;

/**
 * Servers blocked by an admin (docs/federation.md, "Domain blocks"). The matcher answers the
 * inbox and the outbound fetches from memory; every write here changes table and matcher
 * together. Blocking a server ends every follow between local users and its actors, both ways
 * (rows deleted, no activity sent there), and removes the entries received from its actors,
 * with their feed items and photo copies: nothing of a blocked server stays on show.
 */
export function createDomainBlockService(deps: {
  repo: DomainBlockRepository;
  origin: string;
  transaction: Transaction;
  /** Remote actors the vault knows (id and actor URI). */
  remoteActors(): Promise<{ id: number; uri: string }[]>;
  /** Deletes every follow row in which the actor is follower or followed; how many. */
  removeFollowsWith(actorId: number): Promise<number>;
  /** Removes the entries received from the actor, their feed items and photos; how many. */
  forgetEntries(actorUri: string): Promise<number>;
  now?: () => number;
}) {
  const { repo, transaction } = deps;
  const now = deps.now ?? Date.now;
  const matcher = createDomainBlockMatcher();
  // The table is read once, when the service is made: settled before the first request on
  // SQLite (the statement runs at once); start-up awaits `ready` all the same.
  const ready = repo.list().then((blocks) => {
    for (const block of blocks) matcher.add(block.domain);
  });

  /** Ends the follows with the blocked server's actors and removes their entries. */
  async function cutOff(domain: string) {
    const one = createDomainBlockMatcher([domain]);
    const { theirs, follows } = await transaction(async () => {
      const actors = await deps.remoteActors();
      const theirs = actors.filter((actor) => one.blocksUrl(actor.uri));
      let follows = 0;
      for (const actor of theirs) follows += await deps.removeFollowsWith(actor.id);
      return { theirs, follows };
    });
    let entries = 0;
    for (const actor of theirs) entries += await deps.forgetEntries(actor.uri);
    logger.info('Blocked {domain}: {follows} follows ended, {entries} received entries removed', {
      domain,
      follows,
      entries,
    });
  }

  return {
    matcher: matcher as Pick<DomainBlockMatcher, 'blocksUrl' | 'blockOf'>,

    /** Settles once the matcher holds the blocks stored when the service was made. */
    ready,

    list(): Promise<DomainBlockRecord[]> {
      return repo.list();
    },

    /**
     * Blocks a server: 400 for what is not a host (or this vault's own), 409 when it is
     * blocked already. Answers once its follows have ended and its entries are gone.
     */
    async create(input: { domain: string; note?: string | undefined }): Promise<DomainBlockRecord> {
      const domain = normaliseDomain(input.domain);
      const note = (input.note ?? '').trim();
      if (note.length > MAX_NOTE_LENGTH) {
        throw badRequest(`The note is longer than ${MAX_NOTE_LENGTH} characters.`);
      }
      if (createDomainBlockMatcher([domain]).blocksUrl(deps.origin)) {
        throw badRequest(`${domain} is this vault's own address; it cannot be blocked.`);
      }
      const block = await repo.insert(domain, note, now());
      if (!block) throw conflict(`${domain} is blocked already.`);
      matcher.add(domain);
      await cutOff(domain);
      return block;
    },

    /** Lifts a block (404 for an unknown id). Follows that ended stay ended. */
    async remove(id: number): Promise<void> {
      const block = await transaction(async () => {
        const found = await repo.findById(id);
        return found && (await repo.remove(id)) ? found : undefined;
      });
      if (!block) throw notFound('No such blocked server.');
      matcher.delete(block.domain);
      logger.info('Unblocked {domain}', { domain: block.domain });
    },
  };
}

export type DomainBlockService = ReturnType<typeof createDomainBlockService>;

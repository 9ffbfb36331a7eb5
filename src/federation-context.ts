import { registerBlockHandoff } from '../federation/block-handoff.ts';
import { registerConversationHandoff } from '../federation/conversation-handoff.ts';
import { createEntryAudience } from '../federation/entry-audience.ts';
import { registerEntryHandoff } from '../federation/entry-handoff.ts';
import type { FederatedEntries } from '../federation/entry-rows.ts';
import { registerFollowHandoff } from '../federation/follow-handoff.ts';
import type { FederationGateway } from '../federation/gateway.ts';
import { registerProfileHandoff } from '../federation/profile-handoff.ts';
import { registerTastingHandoff } from '../federation/tasting-handoff.ts';
import type { ActorRepository } from './actors/repository.ts';
import { createNoteReads } from './conversation/note-reads.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Outbox } from './outbox/outbox.ts';
import type { RemoteEntryRepository } from './remote-entries/repository.ts';
import type { TastingRepository } from './tastings/repository.ts';
import type { UserRepository } from './users/repository.ts';

/**
 * The federation part of the context (src/context.ts): the outbox's federating handlers, one per
 * kind of activity that goes to other servers, each handing its jobs to Fedify's queue through
 * the gateway (docs/architecture.md, "Activities and the outbox"). Registered after the local
 * deliveries.
 */
export function registerFederationHandoffs(
  database: DatabaseHandle,
  outbox: Outbox,
  deps: {
    /** VAULT_ORIGIN: the ids of what is sent. */
    origin: string;
    users: UserRepository;
    actors: ActorRepository;
    remoteEntries: RemoteEntryRepository;
    federatedEntries: FederatedEntries;
    tastings: TastingRepository;
    federation: FederationGateway;
  },
): void {
  const { origin, users, actors, federatedEntries, federation } = deps;
  // Who receives a user's entries, tastings and profile: her accepted remote followers.
  const audience = createEntryAudience(database.database);
  // Cheers and comments, on local entries and on remote ones, and their withdrawal.
  registerConversationHandoff(outbox, {
    origin,
    users,
    actors,
    remoteEntries: deps.remoteEntries,
    federatedEntries,
    notes: createNoteReads(database.database),
    federation,
  });
  // Follow, Undo, Accept and Reject of follows with remote actors.
  registerFollowHandoff(outbox, { origin, users, actors, federation });
  // Block and Undo(Block) of remote accounts.
  registerBlockHandoff(outbox, { origin, users, actors, federation });
  // Entries of federated users to their remote followers.
  registerEntryHandoff(outbox, {
    users,
    entries: federatedEntries,
    audience,
    send: async (job) => (await federation.load()).sendEntryActivity(job),
  });
  // What remote servers show of a federated user, as an Update(Person) to her followers' servers.
  registerProfileHandoff(outbox, {
    users,
    audience,
    send: async (job) => (await federation.load()).sendProfileUpdate(job),
  });
  // Tastings of federated users' federated entries, as Notes.
  registerTastingHandoff(outbox, {
    users,
    entries: federatedEntries,
    tastings: deps.tastings,
    audience,
    send: async (job) => (await federation.load()).sendTastingActivity(job),
  });
}

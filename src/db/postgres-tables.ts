import { postgresTables } from './postgres-schema.ts';

/**
 * The PostgreSQL tables, each by the name the schema gives it, for drizzle-kit to read
 * (drizzle.postgres.config.ts): made from src/db/schema/ by src/db/postgres-schema.ts. A table
 * missing here is missing from migrations-postgres/, which test/db/schema-drift.test.ts finds.
 */
export const {
  activities,
  actorKeys,
  actors,
  apiTokens,
  backupCodes,
  beverages,
  blocks,
  bottleEvents,
  bottles,
  cheers,
  commentAddressees,
  commentCheers,
  comments,
  domainBlocks,
  entryTallies,
  federationKv,
  federationQueue,
  feedItems,
  follows,
  idempotencyKeys,
  makerTallies,
  makerTotals,
  notifications,
  outbox,
  pendingLogins,
  photoCapabilities,
  places,
  receivedBlocks,
  remoteEntries,
  sessions,
  shares,
  tastingPhotoCapabilities,
  tastings,
  totpSecrets,
  users,
  webauthnCredentials,
  webauthnRegistrations,
} = postgresTables();

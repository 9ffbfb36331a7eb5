import { index, integer, primaryKey, sqliteTable, text } from '../orm.ts';
import { users } from './users.ts';

export const KEY_TYPES = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const;

/** Each actor's key pairs, generated once and kept for good (JWK JSON). */
export const actorKeys = sqliteTable(
  'actor_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: KEY_TYPES }).notNull(),
    privateKeyJwk: text('private_key_jwk').notNull(),
    publicKeyJwk: text('public_key_jwk').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

/** Fedify's KvStore. key is the JSON of the key array; value is JSON. */
export const federationKv = sqliteTable(
  'federation_kv',
  {
    key: text('key').primaryKey(),
    value: text('value').notNull(),
    expiresAt: integer('expires_at'),
  },
  (t) => [index('federation_kv_expires_at_idx').on(t.expiresAt)],
);

/**
 * Fedify's MessageQueue. A message is taken by setting locked_until (a lease) and deleted only
 * after its handler succeeds, so a crash never loses it. Each channel (inbox, deliveries,
 * fanout) has listeners of its own; rows queued before there were channels are in 'deliveries'
 * (migrations 0014 and 0023), whose handler (Fedify's) handles every kind of message. host is the server a delivery goes to, for the limit
 * of deliveries in flight per server.
 */
export const federationQueue = sqliteTable(
  'federation_queue',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channel: text('channel').notNull().default('outbox'),
    message: text('message').notNull(),
    host: text('host'),
    orderingKey: text('ordering_key'),
    notBefore: integer('not_before').notNull(),
    lockedUntil: integer('locked_until'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('federation_queue_due_idx').on(t.channel, t.notBefore, t.id),
    index('federation_queue_ordering_idx').on(t.orderingKey, t.id),
    index('federation_queue_host_idx').on(t.host, t.lockedUntil),
  ],
);

/**
 * Servers an admin blocked (src/domain-blocks/): `domain` is a lowercase host, with `:port`
 * when the block is for one port only; without a port it covers every port of that host.
 */
export const domainBlocks = sqliteTable('domain_blocks', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  domain: text('domain').notNull().unique(),
  note: text('note').notNull().default(''),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});

export type DomainBlockRow = typeof domainBlocks.$inferSelect;

import { BEVERAGE_STATUSES, BEVERAGE_TYPES } from '../../../contract/enums.ts';
import { index, integer, sqliteTable, text } from '../orm.ts';
import { actors } from './actors.ts';

/**
 * An entry of a remote vault, received as a Create(Note) carrying the vault extension from an
 * actor a local user follows. Shown in followers' feeds read-only; 'Add to vault' clones it.
 * Update and Delete from the same actor change or remove it.
 */
export const remoteEntries = sqliteTable(
  'remote_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    /** The Note's id. */
    noteUri: text('note_uri').notNull().unique(),
    type: text('type', { enum: BEVERAGE_TYPES }).notNull(),
    name: text('name').notNull(),
    subtype: text('subtype').notNull(),
    makerName: text('maker_name').notNull().default(''),
    rating: integer('rating').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status', { enum: BEVERAGE_STATUSES }).notNull(),
    /** The photo's URL on the remote server, and the vault's own copy of it ('media/…'). */
    photoUrl: text('photo_url'),
    photoPath: text('photo_path'),
    /**
     * When the Note is a tasting of the entry (its vault terms `tastedOn`, `openedBottle`,
     * `vintage`): JSON `{ tastedOn, opened, vintage }`; null for an entry.
     */
    tasting: text('tasting'),
    publishedAt: integer('published_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('remote_entries_actor_idx').on(t.actorId)],
);

export type RemoteEntryRow = typeof remoteEntries.$inferSelect;

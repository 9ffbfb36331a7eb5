import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ActivityRow, ActivityType } from '../../src/db/schema/index.ts';
import type { DeliveryHandler, Outbox } from '../../src/outbox/outbox.ts';
import {
  HandoffPending,
  registerEntryDelivery,
  type EntryDeliveryJob,
} from '../../federation/entry-delivery.ts';
import type { FederatedEntryRow } from '../../federation/entry-rows.ts';
import { createNoteGenerations } from '../../federation/note-generations.ts';

/**
 * The outbox side of entry delivery, with the outbox's calls made by hand: the row is kept
 * until the activity is in Fedify's queue, a failed hand-off is made again, and users who are
 * not federated or have no remote followers send nothing.
 */

const entry: FederatedEntryRow = {
  id: 7,
  userId: 1,
  type: 'WINE',
  name: 'Barolo',
  subtype: 'Red',
  makerName: '',
  rating: 4,
  notes: '',
  status: 'TRIED',
  inCellar: false,
  photoPath: null,
  visibility: 'MEMBERS',
  federated: true,
  createdAt: new Date(1_000),
  updatedAt: new Date(1_000),
  noteGeneration: 0,
};

/** The real generations store, on the federation_kv table of an in-memory database. */
function generationsStore() {
  const sqlite = new Database(':memory:');
  sqlite.exec(
    'CREATE TABLE federation_kv (key text PRIMARY KEY NOT NULL, value text NOT NULL, expires_at integer)',
  );
  return createNoteGenerations(sqlite);
}

function setup(options: { federated?: boolean; followers?: boolean } = {}) {
  const handlers = new Map<ActivityType, DeliveryHandler>();
  const outbox = { on: (type: ActivityType, h: DeliveryHandler) => handlers.set(type, h) };
  const sent: EntryDeliveryJob[] = [];
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const generations = generationsStore();
  registerEntryDelivery(outbox as unknown as Outbox, {
    users: {
      findById: (id) =>
        id === 1
          ? { username: 'alice', fullName: 'Alice', activityPubEnabled: options.federated ?? true }
          : undefined,
    },
    actors: { userIdOf: (actorId) => (actorId === 10 ? 1 : null) },
    entries: {
      byId: (id) =>
        id === entry.id ? { ...entry, noteGeneration: generations.current(id) } : undefined,
      generations,
    },
    audience: { hasRemoteFollowers: () => options.followers ?? true },
    send: (job) => {
      sent.push(job);
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
  });
  const call = (activity: Partial<ActivityRow>, resume?: string) =>
    handlers.get(activity.type!)!(
      {
        id: 1,
        actorId: 10,
        type: 'Create',
        beverageId: entry.id,
        objectActorId: null,
        shareId: null,
        remoteEntryId: null,
        payload: null,
        createdAt: new Date(2_000),
        ...activity,
      },
      resume,
    );
  return { call, sent, pending, generations };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('handing entry activities to the federation queue', () => {
  it('keeps the outbox row until the hand-off is done, then lets it go', async () => {
    const { call, sent, pending } = setup();
    expect(call({ type: 'Create' })).toBe('queued');
    await settle();
    expect(sent).toEqual([
      expect.objectContaining({ kind: 'Create', username: 'alice', entryId: 7 }),
    ]);
    expect(() => call({ type: 'Create' }, 'queued')).toThrow(HandoffPending);
    pending[0]!.resolve();
    await settle();
    expect(call({ type: 'Create' }, 'queued')).toBeUndefined();
    expect(sent).toHaveLength(1);
  });

  it('hands a failed hand-off over again on the next run', async () => {
    const { call, sent, pending } = setup();
    call({ type: 'Update' });
    await settle();
    pending[0]!.reject(new Error('queue unavailable'));
    await settle();
    expect(call({ type: 'Update' }, 'queued')).toBe('queued');
    await settle();
    expect(sent.map((j) => j.kind)).toEqual(['Update', 'Update']);
  });

  it('queues the activities of one entry in order: the Update after the Create', async () => {
    const { call, sent, pending } = setup();
    call({ id: 1, type: 'Create' });
    call({ id: 2, type: 'Update' });
    await settle();
    expect(sent.map((j) => j.kind)).toEqual(['Create']);
    pending[0]!.resolve();
    await settle();
    expect(sent.map((j) => j.kind)).toEqual(['Create', 'Update']);
  });

  it('sends a Delete with the entry id and the time of the deletion from its payload', async () => {
    const { call, sent } = setup();
    call({ type: 'Delete', beverageId: null, payload: JSON.stringify({ id: 7, userId: 1 }) });
    await settle();
    expect(sent).toEqual([
      {
        kind: 'Delete',
        username: 'alice',
        fullName: 'Alice',
        entryId: 7,
        generation: 0,
        deletedAt: new Date(2_000),
      },
    ]);
  });

  it('gives an entry that comes back a new generation of its Note id, once, and its later Delete that one', async () => {
    const { call, sent, pending, generations } = setup();
    const leave = {
      type: 'Delete',
      beverageId: null,
      payload: JSON.stringify({ id: 7, userId: 1 }),
    };
    const comeBack = { type: 'Update', payload: JSON.stringify({ federation: 'Create' }) };
    call({ id: 1, ...leave } as Partial<ActivityRow>);
    call({ id: 2, ...comeBack } as Partial<ActivityRow>);
    for (const p of [0, 1]) {
      await settle();
      pending[p]!.resolve();
    }
    await settle();
    expect(call({ id: 2, ...comeBack } as Partial<ActivityRow>, 'queued')).toBeUndefined();
    // The same row handled again (after a restart, say: nothing in memory) counts once.
    expect(call({ id: 2, ...comeBack } as Partial<ActivityRow>, 'queued')).toBe('queued');
    await settle();
    pending[2]!.resolve();
    expect(generations.current(7)).toBe(1);
    call({ id: 3, ...leave } as Partial<ActivityRow>);
    await settle();
    expect(
      sent.map((job) => [
        job.kind,
        job.kind === 'Delete' ? job.generation : job.entry.noteGeneration,
      ]),
    ).toEqual([
      ['Delete', 0],
      ['Create', 1],
      ['Create', 1],
      ['Delete', 1],
    ]);
  });

  it('sends a Delete handled after the return it came before for the generation it left', async () => {
    const { call, sent, pending, generations } = setup();
    call({ id: 5, type: 'Update', payload: JSON.stringify({ federation: 'Create' }) });
    call({
      id: 4,
      type: 'Delete',
      beverageId: null,
      payload: JSON.stringify({ id: 7, userId: 1 }),
    });
    await settle();
    expect(generations.current(7)).toBe(1);
    pending[0]!.resolve();
    await settle();
    expect(sent.map((job) => [job.kind, job.kind === 'Delete' ? job.generation : 1])).toEqual([
      ['Create', 1],
      ['Delete', 0],
    ]);
  });

  it('sends nothing for a user without activityPubEnabled, without remote followers, or an entry gone since', async () => {
    for (const options of [{ federated: false }, { followers: false }]) {
      const { call, sent } = setup(options);
      expect(call({ type: 'Create' })).toBeUndefined();
      expect(
        call({ type: 'Delete', payload: JSON.stringify({ id: 7, userId: 1 }) }),
      ).toBeUndefined();
      expect(sent).toEqual([]);
    }
    const { call, sent } = setup();
    expect(call({ type: 'Update', beverageId: null })).toBeUndefined();
    expect(call({ type: 'Create', beverageId: 99 })).toBeUndefined();
    expect(call({ type: 'Delete', payload: 'not json' })).toBeUndefined();
    await settle();
    expect(sent).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { SqliteKvStore } from '../../federation/kv-store.ts';
import { createNoteGenerations } from '../../federation/note-generations.ts';
import { createNoteActivity, noteTombstone, noteUrl } from '../../federation/note.ts';
import { readVaultNoteFromActivity } from '../../federation/note-reader.ts';
import { localNoteOf, noteIdParts } from '../../federation/paths.ts';
import { tempDatabase } from './temp-database.ts';

/** The generations of a Note id (federation/note-generations.ts): how they are written and read. */

const origin = 'https://vault.example';

describe('a Note id', () => {
  it('is the entry id at generation 0 and the entry id with the generation after that', () => {
    expect(noteUrl(origin, 'alice', 42).href).toBe(`${origin}/users/alice/entries/42`);
    expect(noteUrl(origin, 'alice', 42, 0).href).toBe(`${origin}/users/alice/entries/42`);
    expect(noteUrl(origin, 'alice', 42, 3).href).toBe(`${origin}/users/alice/entries/42-3`);
  });

  it('is read back to its entry and generation, in one spelling only', () => {
    expect(noteIdParts('42')).toEqual({ entryId: 42, generation: 0 });
    expect(noteIdParts('42-3')).toEqual({ entryId: 42, generation: 3 });
    for (const wrong of ['42-0', '042', '42-03', '42-x', '-3', '42-', '0', '42.3', '']) {
      expect(noteIdParts(wrong), wrong).toBeUndefined();
    }
  });

  it('of this vault is recognised whatever its generation, and nothing else is', () => {
    expect(localNoteOf(origin, `${origin}/users/alice/entries/42`)).toEqual({
      username: 'alice',
      entryId: 42,
      generation: 0,
    });
    expect(localNoteOf(origin, new URL(`${origin}/users/al%C3%AFce/entries/42-2`))).toEqual({
      username: 'alïce',
      entryId: 42,
      generation: 2,
    });
    for (const other of [
      'https://elsewhere.example/users/alice/entries/42',
      `${origin}/users/alice/entries/42?x=1`,
      `${origin}/users/alice/entries/42#create`,
      `${origin}/users/alice/entries/42/likes`,
      `${origin}/users/alice`,
      `${origin}/users/%E0%A4%A/entries/42`,
      'not a url',
    ]) {
      expect(localNoteOf(origin, other), other).toBeUndefined();
    }
  });

  it('of a later generation is carried by the Create, and another vault reads the entry under it', async () => {
    const entry = {
      id: 42,
      type: 'BEER' as const,
      name: 'Back Again Stout',
      subtype: 'Stout',
      makerName: '',
      rating: 4,
      notes: '',
      status: 'TRIED' as const,
      inCellar: false,
      createdAt: new Date(1_000),
      updatedAt: new Date(1_000),
      photo: null,
      noteGeneration: 2,
    };
    const create = createNoteActivity({
      entry,
      author: { username: 'alice', fullName: 'A' },
      origin,
    });
    const json = (await create.toJsonLd({ format: 'compact' })) as { id: string };
    expect(json.id).toBe(`${origin}/users/alice/entries/42-2#create`);
    expect(readVaultNoteFromActivity(json)).toMatchObject({
      noteId: `${origin}/users/alice/entries/42-2`,
      name: 'Back Again Stout',
    });
  });

  it('of an earlier generation has a Tombstone without a deletion time when none is known', async () => {
    const tombstone = noteTombstone({ origin, username: 'alice', entryId: 42, generation: 1 });
    expect(await tombstone.toJsonLd()).toMatchObject({
      id: `${origin}/users/alice/entries/42-1`,
      type: 'Tombstone',
    });
    expect(tombstone.deleted).toBeNull();
  });
});

describe('the generations of an entry', () => {
  it('count its returns once each, in the federation key–value table where Fedify’s store reads them', async () => {
    const temp = tempDatabase();
    await temp.ready;
    const database = temp.database.database;
    const generations = createNoteGenerations(database);
    expect(await generations.current(42)).toBe(0);
    await generations.reenter(42, 30);
    await generations.reenter(42, 10);
    await generations.reenter(42, 30);
    expect(await generations.current(42)).toBe(2);
    expect(await generations.current(43)).toBe(0);
    expect(await Promise.all([5, 10, 11, 30, 31].map((id) => generations.before(42, id)))).toEqual([
      0, 0, 1, 1, 2,
    ]);
    const kv = new SqliteKvStore(database, { purgeIntervalMs: 0 });
    expect(await kv.get(['vault', 'noteReentries', '42'])).toEqual([10, 30]);
    kv.close();
    await temp.remove();
  });

  it('remember each withdrawn generation, by whom and first when, and nothing else', async () => {
    const temp = tempDatabase();
    await temp.ready;
    const generations = createNoteGenerations(temp.database.database);
    expect(await generations.withdrawal(42, 0)).toBeUndefined();
    await generations.withdraw(42, {
      username: 'alice',
      generation: 0,
      deletedAt: new Date(1_000),
    });
    await generations.withdraw(42, {
      username: 'alice',
      generation: 0,
      deletedAt: new Date(5_000),
    });
    await generations.withdraw(42, {
      username: 'alice',
      generation: 1,
      deletedAt: new Date(2_000),
    });
    expect(await generations.withdrawal(42, 0)).toEqual({
      username: 'alice',
      deletedAt: new Date(1_000),
    });
    expect(await generations.withdrawal(42, 1)).toEqual({
      username: 'alice',
      deletedAt: new Date(2_000),
    });
    expect(await generations.withdrawal(42, 2)).toBeUndefined();
    expect(await generations.withdrawal(43, 0)).toBeUndefined();
    await temp.remove();
  });
});

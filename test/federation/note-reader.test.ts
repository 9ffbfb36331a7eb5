// A received Note back to a vault entry: round trips through what Fedify really sends, and the
// reader's refusals of foreign, malformed and hostile Notes (federation/note-reader.ts).
import { Create, type Activity } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subtypesOf } from '../../src/beverages/catalog.ts';
import { createNoteActivity, type NoteEntry, updateNoteActivity } from '../../federation/note.ts';
import { readVaultNote, readVaultNoteFromActivity } from '../../federation/note-reader.ts';
import { vaultContextDocument, vaultNamespace } from '../../federation/vault-context.ts';
import {
  ACTOR,
  entry,
  input,
  NOTE_ID,
  noteJson,
  ORIGIN,
  startCapturingInbox,
  type CapturingInbox,
  type Json,
} from './note-fixtures.ts';

let inbox: CapturingInbox;
beforeAll(async () => {
  inbox = await startCapturingInbox();
});
afterAll(() => inbox.close());
const sent = (activity: Activity) => inbox.sent(activity);

describe('reading a Note back', () => {
  it.each([
    ['a whiskey with a maker, notes and a photo', {}],
    [
      'a wine without maker, notes or photo',
      { type: 'WINE', subtype: 'Rosé', makerName: '', notes: '', photo: null, inCellar: false },
    ],
    ['a beer to try', { type: 'BEER', subtype: 'IPA', status: 'TO_TRY', rating: 0 }],
  ] as [string, Partial<NoteEntry>][])(
    'reads back every field of %s from the Create Fedify sends',
    async (_label, changes) => {
      const e = entry(changes);
      const body = await sent(createNoteActivity(input(changes)));
      expect(readVaultNoteFromActivity(body)).toEqual({
        noteId: NOTE_ID,
        attributedTo: ACTOR,
        type: e.type,
        name: e.name,
        subtype: e.subtype,
        makerName: e.makerName,
        rating: e.rating,
        status: e.status,
        inCellar: e.inCellar,
        notes: e.notes,
        ...(e.photo ? { photo: { ...e.photo, mediaType: 'image/jpeg' } } : {}),
        published: e.createdAt,
        updated: e.updatedAt,
      });
    },
  );

  it('reads the Note served on its own and the one in an Update alike', async () => {
    const own = readVaultNote(await noteJson());
    const updated = readVaultNoteFromActivity(await sent(updateNoteActivity(input())));
    expect(own).toBeDefined();
    expect(own).toEqual(updated);
    expect(own?.rating).toBe(4);
  });

  it('reads the Create as Fedify hands it to an inbox listener (the JSON it arrived as)', async () => {
    const body = await sent(createNoteActivity(input()));
    const parsed = await Create.fromJsonLd(body);
    const raw = await parsed.toJsonLd();
    expect(raw).toEqual(body);
    expect(readVaultNoteFromActivity(raw)?.name).toBe('Lagavulin 16');
  });

  it('recognises the vault terms as a prefix, as defined terms, or as absolute IRIs', async () => {
    const json = await noteJson();
    const ns = vaultNamespace(ORIGIN);
    const terms = Object.entries(json).filter(([key]) => key.startsWith('vault:'));
    const rest = Object.fromEntries(
      Object.entries(json).filter(([key]) => !key.startsWith('vault:')),
    );
    const absolute = {
      ...rest,
      ...Object.fromEntries(terms.map(([k, v]) => [ns + k.slice(6), v])),
    };
    const defined = {
      ...rest,
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        vaultContextDocument(ORIGIN)['@context'],
      ],
      ...Object.fromEntries(terms.map(([k, v]) => [k.slice(6), v])),
    };
    const expected = readVaultNote(json);
    expect(expected?.type).toBe('WHISKEY');
    expect(
      readVaultNote({ ...absolute, '@context': 'https://www.w3.org/ns/activitystreams' }),
    ).toEqual(expected);
    expect(readVaultNote(defined)).toEqual(expected);
  });

  it('ignores a plain Mastodon status: no vault extension', () => {
    const status = {
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        { ostatus: 'http://ostatus.org#', sensitive: 'as:sensitive' },
      ],
      id: 'https://mastodon.example/users/bob/statuses/1',
      type: 'Note',
      summary: null,
      inReplyTo: null,
      published: '2026-03-01T10:00:00Z',
      url: 'https://mastodon.example/@bob/1',
      attributedTo: 'https://mastodon.example/users/bob',
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      cc: ['https://mastodon.example/users/bob/followers'],
      sensitive: false,
      content: '<p>Tried Lagavulin 16 tonight ★★★★☆</p>',
      attachment: [
        { type: 'Document', mediaType: 'image/jpeg', url: 'https://files.mastodon.example/a.jpg' },
      ],
      tag: [],
    };
    expect(readVaultNote(status)).toBeUndefined();
    expect(
      readVaultNoteFromActivity({ type: 'Create', actor: status.attributedTo, object: status }),
    ).toBeUndefined();
  });

  it("ignores vault terms under another origin's namespace, and a prefix pointing elsewhere", async () => {
    const json = await noteJson();
    expect(
      readVaultNote({
        ...json,
        '@context': [
          ...json['@context'].slice(0, -1),
          { vault: 'https://other.example/ns/vault#' },
        ],
      }),
    ).toBeUndefined();
    expect(readVaultNote({ ...json, '@context': json['@context'].slice(0, -1) })).toBeUndefined();
  });

  it.each([
    ['an unknown type', { 'vault:entryType': 'CIDER' }],
    ['a type in lower case', { 'vault:entryType': 'whiskey' }],
    ['a rating above 5', { 'vault:rating': 6 }],
    ['a negative rating', { 'vault:rating': -1 }],
    ['a rating that is not whole', { 'vault:rating': 3.5 }],
    ['a rating given as text', { 'vault:rating': '4' }],
    ['an unknown status', { 'vault:status': 'DRUNK' }],
    ['inCellar given as text', { 'vault:inCellar': 'yes' }],
    ['no name', { 'vault:entryName': ' \n ' }],
    ['a name that is an array', { 'vault:entryName': ['Lagavulin', '16'] }],
    ['a maker that is an object', { 'vault:makerName': { name: 'Lagavulin' } }],
    ['notes nested in a value object', { 'vault:notes': { '@value': { deep: 'x' } } }],
    ['the type twice under two spellings', { [`${ORIGIN}/ns/vault#entryType`]: 'WINE' }],
    ['an id that is not a string', { id: [NOTE_ID] }],
    ['an id that is an object', { id: { id: NOTE_ID } }],
    ['an id that is not an http(s) URL', { id: 'javascript:alert(1)' }],
    ['an attributedTo that is an array', { attributedTo: [ACTOR] }],
    ['an attributedTo on another origin', { attributedTo: 'https://evil.example/users/alice' }],
    ['another type than Note', { type: 'Article' }],
    ['a type list', { type: ['Note'] }],
    ['no published date', { published: undefined }],
    ['a published date that is not a date', { published: 'yesterday' }],
    ['an updated date that is a number', { updated: 1772390000000 }],
  ])('refuses a Note with %s', async (_label, changes) => {
    const json = { ...(await noteJson()), ...changes } as Json;
    for (const [key, value] of Object.entries(changes)) if (value === undefined) delete json[key];
    expect(readVaultNote(json)).toBeUndefined();
  });

  it('never throws on hostile input', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { a: deep, b: [deep] };
    const hostile: unknown[] = [
      undefined,
      null,
      0,
      'Note',
      [],
      [{ type: 'Note' }],
      {},
      { type: 'Note', '@context': deep, 'vault:entryType': deep },
      { type: 'Note', '@context': [[[[{ vault: 42 }]]]], id: NOTE_ID },
      JSON.parse(
        '{"__proto__": {"polluted": true}, "type": "Note", "constructor": {"prototype": {}}}',
      ),
      { type: 'Create', object: deep, '@context': deep },
      { type: 'Update', object: 'https://vault.example/users/alice/entries/42' },
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('boom');
          },
          ownKeys: () => {
            throw new Error('boom');
          },
        },
      ),
    ];
    for (const value of hostile) {
      expect(readVaultNote(value)).toBeUndefined();
      expect(readVaultNoteFromActivity(value)).toBeUndefined();
    }
    expect(({} as Json).polluted).toBeUndefined();
  });

  it("maps a subtype not in the catalogue to the type's first subtype and keeps the text in the notes", async () => {
    const read = readVaultNote({ ...(await noteJson()), 'vault:subtype': 'Islay <Cask> Strength' });
    expect(read?.subtype).toBe(subtypesOf('WHISKEY')[0]);
    expect(read?.notes).toBe(
      'Subtype: Islay <Cask> Strength\n\nPeat and smoke.\nA long, dry finish.',
    );
    const noNotes = readVaultNote({ ...(await noteJson({ notes: '' })), 'vault:subtype': 'Stout' });
    expect(noNotes).toMatchObject({ subtype: subtypesOf('WHISKEY')[0], notes: 'Subtype: Stout' });
    const missing = { ...(await noteJson()) };
    delete missing['vault:subtype'];
    expect(readVaultNote(missing)).toMatchObject({
      subtype: subtypesOf('WHISKEY')[0],
      notes: entry().notes,
    });
  });

  it("accepts a catalogue subtype in another case, in the catalogue's spelling", async () => {
    const read = readVaultNote({
      ...(await noteJson({ type: 'WINE' })),
      'vault:subtype': 'grüner VELTLINER',
    });
    expect(read).toMatchObject({ type: 'WINE', subtype: 'Grüner Veltliner', notes: entry().notes });
  });

  it("cuts an over-long name, maker and notes to the vault's limits and drops control characters", async () => {
    const huge = 'é'.repeat(2_000_000);
    const read = readVaultNote({
      ...(await noteJson()),
      'vault:entryName': `  Laga\u0000vulin${huge}`,
      'vault:makerName': huge,
      'vault:notes': `line one\nline\ttwo\u0007${huge}`,
    });
    expect(read?.name).toBe(`Lagavulin${'é'.repeat(191)}`);
    expect(read?.makerName).toBe('é'.repeat(200));
    expect(read?.notes.startsWith('line one\nline\ttwo')).toBe(true);
    expect(Array.from(read!.notes)).toHaveLength(5000);
    const glasses = readVaultNote({
      ...(await noteJson()),
      'vault:makerName': `a${'🥃'.repeat(300)}`,
    });
    expect(glasses?.makerName).toBe(`a${'🥃'.repeat(199)}`);
  });

  it('reads dates with fractions of a second and offsets as the same instants', async () => {
    const read = readVaultNote({
      ...(await noteJson()),
      published: '2026-03-01T19:30:00.745240+01:00',
      updated: '2026-03-02T09:15:00.000Z',
    });
    expect(read?.published.toISOString()).toBe('2026-03-01T18:30:00.745Z');
    expect(read?.updated?.toISOString()).toBe('2026-03-02T09:15:00.000Z');
  });

  it('gives an entry to try a rating of 0 whatever it says', async () => {
    const read = readVaultNote({
      ...(await noteJson()),
      'vault:status': 'TO_TRY',
      'vault:rating': 5,
    });
    expect(read).toMatchObject({ status: 'TO_TRY', rating: 0 });
  });

  it('keeps the first usable image attachment and ignores the others', async () => {
    const json = await noteJson({ photo: null });
    const image = {
      type: 'Image',
      mediaType: 'image/png',
      url: 'https://cdn.example/p.png',
      width: 10,
      height: 20,
    };
    const cases: [unknown, unknown][] = [
      [image, { url: image.url, mediaType: 'image/png', width: 10, height: 20 }],
      [
        [
          { ...image, mediaType: 'video/mp4' },
          { ...image, width: -3, height: 'tall' },
        ],
        { url: image.url, mediaType: 'image/png', width: null, height: null },
      ],
      [[{ ...image, url: 'file:///etc/passwd' }], undefined],
      [[{ ...image, url: { href: image.url } }], undefined],
      [[{ ...image, type: 'Link' }], undefined],
      ['https://cdn.example/p.png', undefined],
    ];
    for (const [attachment, photo] of cases) {
      expect(readVaultNote({ ...json, attachment })?.photo).toEqual(photo);
    }
  });
});

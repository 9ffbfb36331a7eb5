// An entry as a Note and back: the content Mastodon shows, the addressing, the vault extension,
// the activities as Fedify really sends them, and the reader's refusals.
//
// Golden files: test/federation/golden/{note,create-note,update-note,delete-note}.json are
// compared exactly. After a deliberate change, regenerate them with
//   UPDATE_GOLDEN=1 vitest run test/federation/note.test.ts
// and review the diff (Mastodon 4 needs a string id, content, attributedTo, to, published, and
// attachments of type Image or Document with mediaType and url).
import type { webcrypto } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  createFederation,
  MemoryKvStore,
  type SenderKeyPair,
  verifyJsonLd,
  verifyObject,
} from '@fedify/fedify';
import { Create, CryptographicKey, Multikey, type Activity } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEVERAGE_TYPES } from '../../contract/enums.ts';
import { CATALOG, subtypesOf } from '../../src/beverages/catalog.ts';
import {
  createNoteActivity,
  deleteNoteActivity,
  entryNote,
  type NoteEntry,
  type NoteInput,
  updateNoteActivity,
} from '../../federation/note.ts';
import { noteContent, ratingStars } from '../../federation/note-content.ts';
import { readVaultNote, readVaultNoteFromActivity } from '../../federation/note-reader.ts';
import { vaultContextDocument, vaultNamespace } from '../../federation/vault-context.ts';

/** JSON-LD as loosely typed JSON, for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const ORIGIN = 'https://vault.example';
const NOTE_ID = `${ORIGIN}/users/alice/entries/42`;
const ACTOR = `${ORIGIN}/users/alice`;
const FOLLOWERS = `${ORIGIN}/users/alice/followers`;
const GOLDEN = path.join(import.meta.dirname, 'golden');

function entry(changes: Partial<NoteEntry> = {}): NoteEntry {
  return {
    id: 42,
    type: 'WHISKEY',
    name: 'Lagavulin 16',
    subtype: 'Scotch',
    makerName: 'Lagavulin',
    rating: 4,
    notes: 'Peat and smoke.\nA long, dry finish.',
    status: 'TRIED',
    inCellar: true,
    createdAt: new Date('2026-03-01T18:30:00Z'),
    updatedAt: new Date('2026-03-02T09:15:00Z'),
    photo: { url: `${ORIGIN}/media/shared/9f2c4e7a1b.jpg`, width: 900, height: 1200 },
    ...changes,
  };
}

function input(
  changes: Partial<NoteEntry> = {},
  author = { username: 'alice', fullName: 'Alice Archer' },
): NoteInput {
  return { entry: entry(changes), author, origin: ORIGIN };
}

const DELETED = {
  origin: ORIGIN,
  username: 'alice',
  entryId: 42,
  deletedAt: new Date('2026-03-03T07:00:00Z'),
};

async function noteJson(
  changes: Partial<NoteEntry> = {},
  author?: NoteInput['author'],
): Promise<Json> {
  return (await entryNote(input(changes, author)).toJsonLd()) as Json;
}

function contentOf(changes: Partial<NoteEntry> = {}, authorName = 'Alice Archer'): string {
  const e = entry(changes);
  return noteContent({ ...e, authorName, handle: 'alice@vault.example', profileUrl: ACTOR });
}

// ---------------------------------------------------------------------------------------------
// Fedify really sending: a loopback inbox records what arrives.

let inbox: { url: URL; bodies: Json[]; close: () => Promise<void> };
let keys: SenderKeyPair[];
let ed25519Public: webcrypto.CryptoKey;
let rsaPublic: webcrypto.CryptoKey;

beforeAll(async () => {
  const bodies: Json[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json);
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  inbox = {
    url: new URL(`http://127.0.0.1:${port}/inbox`),
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const rsa = (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as webcrypto.CryptoKeyPair;
  const ed = (await crypto.subtle.generateKey('Ed25519', true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  ed25519Public = ed.publicKey;
  rsaPublic = rsa.publicKey;
  keys = [
    { keyId: new URL(`${ACTOR}#main-key`), privateKey: rsa.privateKey },
    { keyId: new URL(`${ACTOR}#ed25519-key`), privateKey: ed.privateKey },
  ] as unknown as SenderKeyPair[];
});
afterAll(() => inbox.close());

/** The JSON Fedify delivers for the activity, with its signature and proof. */
async function sent(activity: Activity): Promise<Json> {
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  const ctx = federation.createContext(new URL(ORIGIN), undefined);
  const before = inbox.bodies.length;
  await ctx.sendActivity(
    keys,
    { id: new URL('http://127.0.0.1/actor'), inboxId: inbox.url },
    activity,
    {
      immediate: true,
    },
  );
  expect(inbox.bodies.length).toBe(before + 1);
  return inbox.bodies[before]!;
}

/** The delivered JSON without what changes on every send (the signature and the proof). */
function unsigned(body: Json): Json {
  const { signature: _signature, proof: _proof, ...rest } = body;
  return rest;
}

function expectGolden(name: string, json: unknown): void {
  const file = path.join(GOLDEN, name);
  const text = `${JSON.stringify(json, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    fs.mkdirSync(GOLDEN, { recursive: true });
    fs.writeFileSync(file, text);
  }
  // Exact, key order included; only the file's whitespace may differ (a formatter's).
  const golden = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  expect(text).toBe(`${JSON.stringify(golden, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------

describe('the HTML content', () => {
  it.each(BEVERAGE_TYPES)(
    'names a %s entry with its type, subtype and the maker under its label',
    (type) => {
      const subtype = subtypesOf(type)[1]!;
      const html = contentOf({ type, subtype, makerName: 'House of Test' });
      expect(html).toContain(`<p>Alice Archer tried <strong>Lagavulin 16</strong></p>`);
      expect(html).toContain(
        `<p>${CATALOG[type].label} · ${subtype}<br>${CATALOG[type].makerLabel}: House of Test<br>`,
      );
    },
  );

  it('uses the catalogue labels: Whiskey and Distiller, Wine and Winery, Beer and Brewing company', () => {
    expect(contentOf({ type: 'WHISKEY', subtype: 'Rye' })).toContain(
      'Whiskey · Rye<br>Distiller: Lagavulin',
    );
    expect(contentOf({ type: 'WINE', subtype: 'Merlot' })).toContain(
      'Wine · Merlot<br>Winery: Lagavulin',
    );
    expect(contentOf({ type: 'BEER', subtype: 'Stout' })).toContain(
      'Beer · Stout<br>Brewing company: Lagavulin',
    );
  });

  it.each(BEVERAGE_TYPES)(
    'leaves out the maker line and the notes of a %s entry that has none',
    (type) => {
      const html = contentOf({ type, subtype: subtypesOf(type)[0]!, makerName: '  ', notes: '' });
      expect(html).not.toContain(CATALOG[type].makerLabel);
      expect(html).toBe(
        `<p>Alice Archer tried <strong>Lagavulin 16</strong></p>` +
          `<p>${CATALOG[type].label} · ${subtypesOf(type)[0]}<br>Rating: ★★★★☆ (4/5)</p>` +
          `<p>From <a href="${ACTOR}">@alice@vault.example</a>'s vault</p>`,
      );
    },
  );

  it('says "wants to try" and shows no rating for an entry to try', () => {
    const html = contentOf({ status: 'TO_TRY', rating: 0 });
    expect(html).toContain('<p>Alice Archer wants to try <strong>Lagavulin 16</strong></p>');
    expect(html).not.toContain('Rating');
    expect(html).not.toContain('☆');
  });

  it('shows the rating as five stars, from ☆☆☆☆☆ to ★★★★★', () => {
    const stars = [0, 1, 2, 3, 4, 5].map((rating) => ratingStars(rating));
    expect(stars).toEqual(['☆☆☆☆☆', '★☆☆☆☆', '★★☆☆☆', '★★★☆☆', '★★★★☆', '★★★★★']);
    for (const rating of [0, 1, 2, 3, 4, 5]) {
      expect(contentOf({ rating })).toContain(`Rating: ${stars[rating]} (${rating}/5)`);
    }
    expect([ratingStars(-2), ratingStars(9), ratingStars(Number.NaN)]).toEqual([
      '☆☆☆☆☆',
      '★★★★★',
      '☆☆☆☆☆',
    ]);
  });

  it('turns line breaks in the notes into <br> and blank lines into paragraphs', () => {
    expect(contentOf({ notes: 'Nose: peat\nPalate: salt\n\nWould buy again' })).toContain(
      '<p>Nose: peat<br>Palate: salt</p><p>Would buy again</p>',
    );
  });

  it('escapes <script> and & in every piece of user text and uses only p, br, strong and a', async () => {
    const evil = '<script>alert("x")</script> & <b>bold</b>';
    const json = await noteJson(
      { name: evil, subtype: evil, makerName: evil, notes: `${evil}\n${evil}` },
      { username: 'alice', fullName: evil },
    );
    const html = json.content as string;
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(
      html.split('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;')
        .length - 1,
    ).toBe(6);
    const tags = new Set([...html.matchAll(/<\/?([a-z]+)/g)].map((match) => match[1]));
    expect([...tags].sort()).toEqual(['a', 'br', 'p', 'strong']);
    expect(json.attachment.name).toBe(`Bottle photo of ${evil}`); // a JSON string, shown as text
  });
});

describe('the Note', () => {
  it('has a stable id under its author, is attributed to the actor, and links the profile', async () => {
    const json = await noteJson();
    expect(json.id).toBe(NOTE_ID);
    expect(json.type).toBe('Note');
    expect(json.attributedTo).toBe(ACTOR);
    expect(json.url).toBe(ACTOR);
    expect(json.published).toBe('2026-03-01T18:30:00Z');
    expect(json.updated).toBe('2026-03-02T09:15:00Z');
    expect((await noteJson({ notes: 'changed' })).id).toBe(NOTE_ID);
  });

  it('has no updated date when the entry was never edited', async () => {
    const created = new Date('2026-03-01T18:30:00Z');
    const json = await noteJson({ createdAt: created, updatedAt: created });
    expect(json.published).toBe('2026-03-01T18:30:00Z');
    expect(json).not.toHaveProperty('updated');
  });

  it('is addressed to the followers collection only: never Public, no cc, no summary', async () => {
    const documents = [
      await noteJson(),
      await noteJson({ status: 'TO_TRY', photo: null }),
      (await createNoteActivity(input()).toJsonLd({ format: 'compact' })) as Json,
      (await updateNoteActivity(input()).toJsonLd({ format: 'compact' })) as Json,
      (await deleteNoteActivity(DELETED).toJsonLd({ format: 'compact' })) as Json,
    ];
    for (const doc of documents) {
      for (const node of [doc, ...(doc.object && doc.object.type === 'Note' ? [doc.object] : [])]) {
        expect(node.to).toBe(FOLLOWERS);
        for (const key of ['cc', 'bto', 'bcc', 'audience', 'summary'])
          expect(node).not.toHaveProperty(key);
      }
      expect(JSON.stringify(doc)).not.toMatch(/Public/);
    }
  });

  it('attaches the bottle photo as an Image with its media type, size and alt text', async () => {
    expect((await noteJson()).attachment).toEqual({
      type: 'Image',
      mediaType: 'image/jpeg',
      url: `${ORIGIN}/media/shared/9f2c4e7a1b.jpg`,
      width: 900,
      height: 1200,
      name: 'Bottle photo of Lagavulin 16',
    });
    const relative = await noteJson({
      photo: { url: 'media/shared/abc.jpg', width: 10, height: 20 },
    });
    expect(relative.attachment.url).toBe(`${ORIGIN}/media/shared/abc.jpg`);
    expect(await noteJson({ photo: null })).not.toHaveProperty('attachment');
  });

  it('carries the entry fields as vault: terms, the prefix defined inline in its @context', async () => {
    const json = await noteJson();
    expect(json['@context']).toContainEqual({ vault: `${ORIGIN}/ns/vault#` });
    expect(json).toMatchObject({
      'vault:entryType': 'WHISKEY',
      'vault:entryName': 'Lagavulin 16',
      'vault:subtype': 'Scotch',
      'vault:makerName': 'Lagavulin',
      'vault:rating': 4,
      'vault:status': 'TRIED',
      'vault:inCellar': true,
      'vault:notes': 'Peat and smoke.\nA long, dry finish.',
    });
    const bare = await noteJson({ makerName: '', notes: '', status: 'TO_TRY', rating: 3 });
    expect(bare).not.toHaveProperty('vault:makerName');
    expect(bare).not.toHaveProperty('vault:notes');
    expect(bare['vault:rating']).toBe(0);
  });

  it('describes the vault terms in the context document served at {origin}/ns/vault', () => {
    const doc = vaultContextDocument(ORIGIN);
    expect(vaultNamespace(`${ORIGIN}/`)).toBe(`${ORIGIN}/ns/vault#`);
    expect(doc['@context'].vault).toBe(`${ORIGIN}/ns/vault#`);
    expect(Object.keys(doc['@context']).sort()).toEqual([
      'entryName',
      'entryType',
      'inCellar',
      'makerName',
      'notes',
      'rating',
      'status',
      'subtype',
      'vault',
    ]);
    expect(doc['@context'].rating).toEqual({
      '@id': 'vault:rating',
      '@type': 'http://www.w3.org/2001/XMLSchema#integer',
    });
  });
});

describe('golden files', () => {
  it('serves the Note as in note.json', async () => {
    expectGolden('note.json', await noteJson());
  });

  it('sends Create, Update and Delete through Fedify as in the golden files, signed', async () => {
    const activities: [string, Activity][] = [
      ['create-note.json', createNoteActivity(input())],
      ['update-note.json', updateNoteActivity(input())],
      ['delete-note.json', deleteNoteActivity(DELETED)],
    ];
    for (const [file, activity] of activities) {
      const body = await sent(activity);
      expect(body.signature?.type).toBe('RsaSignature2017');
      expect(body.proof?.cryptosuite).toBe('eddsa-jcs-2022');
      expectGolden(file, unsigned(body));
    }
  });

  it('signs with a proof that a receiving Fedify verifies and that covers the vault terms', async () => {
    const keyId = `${ACTOR}#ed25519-key`;
    const keyCache = {
      get: async (id: URL) =>
        id.href === keyId
          ? new Multikey({ id, controller: new URL(ACTOR), publicKey: ed25519Public as never })
          : null,
      set: async () => {},
    };
    const { signature: _signature, ...body } = await sent(createNoteActivity(input()));
    const verified = await verifyObject(Create, body, { keyCache });
    expect(verified?.id?.href).toBe(`${NOTE_ID}#create`);
    const tampered = { ...body, object: { ...body.object, 'vault:rating': 1 } };
    expect(await verifyObject(Create, tampered, { keyCache })).toBeNull();
  });

  it('signs with an RSA Linked Data signature that covers the vault terms', async () => {
    const keyId = `${ACTOR}#main-key`;
    const keyCache = {
      get: async (id: URL) =>
        id.href === keyId
          ? new CryptographicKey({ id, owner: new URL(ACTOR), publicKey: rsaPublic as never })
          : null,
      set: async () => {},
    };
    const body = await sent(createNoteActivity(input()));
    expect(await verifyJsonLd(body, { keyCache })).toBe(true);
    const tampered = { ...body, object: { ...body.object, 'vault:entryName': 'Something else' } };
    expect(await verifyJsonLd(tampered, { keyCache })).toBe(false);
  });

  it('gives the activities ids derived from the Note id and the edit time', async () => {
    const create = await createNoteActivity(input()).toJsonLd({ format: 'compact' });
    const update = await updateNoteActivity(input()).toJsonLd({ format: 'compact' });
    const later = await updateNoteActivity(
      input({ updatedAt: new Date('2026-03-05T00:00:00Z') }),
    ).toJsonLd({
      format: 'compact',
    });
    const del = await deleteNoteActivity(DELETED).toJsonLd({ format: 'compact' });
    expect([create, update, later, del].map((a) => (a as Json).id)).toEqual([
      `${NOTE_ID}#create`,
      `${NOTE_ID}#update-${Date.parse('2026-03-02T09:15:00Z')}`,
      `${NOTE_ID}#update-${Date.parse('2026-03-05T00:00:00Z')}`,
      `${NOTE_ID}#delete`,
    ]);
    expect((del as Json).object).toEqual({
      id: NOTE_ID,
      type: 'Tombstone',
      formerType: 'as:Note',
      deleted: '2026-03-03T07:00:00Z',
    });
  });
});

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

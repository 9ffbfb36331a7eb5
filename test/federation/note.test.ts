// An entry as a Note and back: the content Mastodon shows, the addressing, the vault extension,
// the activities as Fedify really sends them. Reading Notes back: note-reader.test.ts.
//
// Golden files: test/federation/golden/{note,create-note,update-note,delete-note}.json are
// compared exactly. After a deliberate change, regenerate them with
//   UPDATE_GOLDEN=1 vitest run test/federation/note.test.ts
// and review the diff (Mastodon 4 needs a string id, content, attributedTo, to, published, and
// attachments of type Image or Document with mediaType and url).
import fs from 'node:fs';
import path from 'node:path';
import { verifyJsonLd, verifyObject } from '@fedify/fedify';
import { Create, CryptographicKey, Multikey, type Activity } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEVERAGE_TYPES } from '../../contract/enums.ts';
import { CATALOG, subtypesOf } from '../../src/beverages/catalog.ts';
import {
  createNoteActivity,
  deleteNoteActivity,
  updateNoteActivity,
} from '../../federation/note.ts';
import { ratingStars } from '../../federation/note-content.ts';
import { vaultContextDocument, vaultNamespace } from '../../federation/vault-context.ts';
import {
  ACTOR,
  contentOf,
  DELETED,
  FOLLOWERS,
  GOLDEN,
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
      'openedBottle',
      'rating',
      'status',
      'subtype',
      'tastedOn',
      'vault',
      'vintage',
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
          ? new Multikey({
              id,
              controller: new URL(ACTOR),
              publicKey: inbox.ed25519Public as never,
            })
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
          ? new CryptographicKey({ id, owner: new URL(ACTOR), publicKey: inbox.rsaPublic as never })
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

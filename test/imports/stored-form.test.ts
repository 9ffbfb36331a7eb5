import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { PHOTO } from '../../src/media/images.ts';
import { baselineSegments, isStoredForm } from '../../src/media/stored-form.ts';

// What the import of a vault export keeps byte for byte (src/media/stored-form.ts): only an
// image made exactly as the vault stores its photos.

let stored: Buffer;
let tables: Buffer;

function gradient(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 5 + Math.floor(i / width)) % 256;
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

/** Where each segment of a JPEG starts (at its 0xFF), up to and including the scan. */
function segments(image: Buffer) {
  const found: { marker: number; at: number; end: number }[] = [];
  let i = 2;
  for (;;) {
    const marker = image[i + 1]!;
    const end = i + 2 + image.readUInt16BE(i + 2);
    found.push({ marker, at: i, end });
    if (marker === 0xda) return found;
    i = end;
  }
}

function segment(marker: number, body: Buffer) {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

const insertAt = (image: Buffer, at: number, bytes: Buffer) =>
  Buffer.concat([image.subarray(0, at), bytes, image.subarray(at)]);

beforeAll(async () => {
  stored = await gradient(64, 48).jpeg({ quality: 82 }).toBuffer();
  tables = baselineSegments(stored)!.tables;
});

describe('A JPEG in the form the vault stores', () => {
  it('is read as its quantization tables and size', () => {
    expect(baselineSegments(stored)).toMatchObject({ width: 64, height: 48, components: 3 });
    expect(tables.length).toBeGreaterThan(64);
  });

  it('may carry a JFIF header without a thumbnail, not one with', () => {
    const jfif = (thumb: number) =>
      Buffer.concat([
        Buffer.from('JFIF\0', 'latin1'),
        Buffer.from([1, 1, 0, 0, 72, 0, 72, thumb, thumb]),
        Buffer.alloc(thumb * thumb * 3),
      ]);
    expect(baselineSegments(insertAt(stored, 2, segment(0xe0, jfif(0))))).not.toBeNull();
    expect(baselineSegments(insertAt(stored, 2, segment(0xe0, jfif(2))))).toBeNull();
  });

  it('is refused with any other segment, a second Huffman table, or bytes after its end', () => {
    const dht = segments(stored).find((s) => s.marker === 0xc4)!;
    const sos = segments(stored).find((s) => s.marker === 0xda)!;
    const variants: Record<string, Buffer> = {
      exif: insertAt(stored, 2, segment(0xe1, Buffer.from('Exif\0\0MM'))),
      icc: insertAt(stored, 2, segment(0xe2, Buffer.from('ICC_PROFILE\0'))),
      iptc: insertAt(stored, 2, segment(0xed, Buffer.from('Photoshop 3.0\0'))),
      adobe: insertAt(stored, 2, segment(0xee, Buffer.from('Adobe\0'))),
      comment: insertAt(stored, 2, segment(0xfe, Buffer.from('<script>'))),
      restartInterval: insertAt(stored, 2, segment(0xdd, Buffer.from([0, 4]))),
      huffmanAgain: insertAt(stored, dht.end, stored.subarray(dht.at, dht.end)),
      trailer: Buffer.concat([stored, Buffer.from('<html>')]),
      afterEndMarker: Buffer.concat([stored, Buffer.from([0xff, 0xd9])]),
      restartInScan: insertAt(stored, sos.end + 4, Buffer.from([0xff, 0xd0])),
      truncated: stored.subarray(0, stored.length - 40),
      notJpeg: Buffer.from('GIF89a'),
    };
    // An AC table symbol no baseline code has: '<' (size 12).
    const ac = segments(stored).find((s) => s.marker === 0xc4 && stored[s.at + 4]! >> 4 === 1)!;
    const badSymbol = Buffer.from(stored);
    badSymbol[ac.at + 4 + 17] = 0x3c;
    variants.badSymbol = badSymbol;
    for (const [name, bytes] of Object.entries(variants)) {
      expect({ name, read: baselineSegments(bytes) }).toEqual({ name, read: null });
    }
  });

  it('is kept only when made with the encoder tables, within the longest side, and whole', async () => {
    expect(await isStoredForm(sharp, stored, PHOTO, tables)).toBe(true);
    expect(await isStoredForm(sharp, stored, { ...PHOTO, maxSide: 60 }, tables)).toBe(false);
    const otherQuality = await gradient(64, 48).jpeg({ quality: 90 }).toBuffer();
    expect(await isStoredForm(sharp, otherQuality, PHOTO, tables)).toBe(false);
    const progressive = await gradient(64, 48).jpeg({ quality: 82, progressive: true }).toBuffer();
    expect(await isStoredForm(sharp, progressive, PHOTO, tables)).toBe(false);
    // Scan bytes changed (no marker): the structure holds, the decoding must not warn.
    const damaged = Buffer.from(stored);
    const sos = segments(stored).find((s) => s.marker === 0xda)!;
    for (let i = sos.end + 10; i < stored.length - 20; i += 3) damaged[i] = 0x00;
    expect(baselineSegments(damaged)).not.toBeNull();
    expect(await isStoredForm(sharp, damaged, PHOTO, tables)).toBe(false);
  });
});

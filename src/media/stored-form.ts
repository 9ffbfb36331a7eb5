import type Sharp from 'sharp';
import type { ImageProfile } from './images.ts';

/** The JPEG markers a stored image is made of, as the vault's encoder writes them. */
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DQT = 0xdb;
const DHT = 0xc4;
const SOF0 = 0xc0;
const APP0 = 0xe0;

/**
 * A DHT segment's Huffman tables, checked: each a DC or AC table 0 or 1, defined once in the
 * image, whose symbols are ones baseline coding uses (DC: a size up to 11; AC: end of block,
 * sixteen zeros, or a run and a size from 1 to 10), none twice. So no table carries bytes of
 * its choosing.
 */
function huffmanTablesOk(body: Buffer, seen: Set<number>): boolean {
  let i = 0;
  while (i < body.length) {
    const id = body[i]!;
    const tableClass = id >> 4;
    if (tableClass > 1 || (id & 0x0f) > 1 || seen.has(id) || i + 17 > body.length) return false;
    seen.add(id);
    let count = 0;
    for (let k = 1; k <= 16; k++) count += body[i + k]!;
    const symbols = body.subarray(i + 17, i + 17 + count);
    if (count === 0 || count > 256 || symbols.length !== count) return false;
    if (new Set(symbols).size !== count) return false;
    for (const symbol of symbols) {
      const size = symbol & 0x0f;
      const ok =
        tableClass === 0
          ? symbol <= 11
          : symbol === 0x00 || symbol === 0xf0 || (size >= 1 && size <= 10);
      if (!ok) return false;
    }
    i += 17 + count;
  }
  return i === body.length;
}

/**
 * The segments of a baseline JPEG with nothing but pixels in it: its quantization tables, one
 * baseline frame, its Huffman tables, one scan, and the end: no APPn (EXIF, XMP, ICC, IPTC,
 * Adobe), no comment, no restart intervals, no second scan, nothing after the end; Huffman
 * tables as baseline coding has them (above). A JFIF APP0
 * header without a thumbnail is allowed (16 bytes: it says only "JFIF" and a density), and
 * three components (the vault stores colour). Answers the quantization tables' bytes and the
 * frame's size, or null.
 */
export function baselineSegments(
  bytes: Uint8Array,
): { tables: Buffer; width: number; height: number; components: number } | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 4 || b[0] !== 0xff || b[1] !== SOI) return null;
  const tables: Buffer[] = [];
  const huffman = new Set<number>();
  let frame: { width: number; height: number; components: number } | null = null;
  let i = 2;
  for (;;) {
    if (i + 4 > b.length || b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    const length = b.readUInt16BE(i + 2);
    const end = i + 2 + length;
    if (length < 2 || end > b.length) return null;
    const body = b.subarray(i + 4, end);
    if (marker === DQT) tables.push(body);
    else if (marker === SOF0) {
      if (frame || body.length < 6 || body[0] !== 8) return null;
      const components = body[5]!;
      if (components !== 3 || body.length !== 6 + 3 * components) return null;
      frame = { height: body.readUInt16BE(1), width: body.readUInt16BE(3), components };
    } else if (marker === APP0) {
      if (length !== 16 || body.toString('latin1', 0, 5) !== 'JFIF\0') return null;
      if (body[12] !== 0 || body[13] !== 0) return null; // a thumbnail
    } else if (marker === SOS) {
      if (!frame || body[0] !== frame.components) return null;
      i = end;
      break;
    } else if (marker === DHT) {
      if (!huffmanTablesOk(body, huffman)) return null;
    } else return null;
    i = end;
  }
  // The entropy-coded scan: every 0xFF in it is a stuffed 0xFF00, up to the final end marker.
  for (; i < b.length - 2; i++) {
    if (b[i] === 0xff && b[i + 1] !== 0x00) return null;
  }
  if (b[b.length - 2] !== 0xff || b[b.length - 1] !== EOI) return null;
  if (!frame || tables.length === 0) return null;
  return { tables: Buffer.concat(tables), ...frame };
}

/**
 * Whether an image is already exactly what the vault stores for `profile`, so that storing its
 * bytes as they are puts nothing in the vault that re-encoding would have refused or cleaned:
 * a baseline JPEG (above: no metadata segment of any kind, nothing hidden after the image),
 * quantized with the very tables of the vault's encoder, within the profile's longest side,
 * in sRGB, and decoded whole by sharp without a single warning. `encoderTables` are the
 * quantization tables the vault's encoder writes (read off an image it made).
 */
export async function isStoredForm(
  sharp: typeof Sharp,
  input: Uint8Array,
  profile: ImageProfile,
  encoderTables: Buffer,
): Promise<boolean> {
  const segments = baselineSegments(input);
  if (!segments || !segments.tables.equals(encoderTables)) return false;
  const { width, height } = segments;
  if (width < 1 || height < 1 || width > profile.maxSide || height > profile.maxSide) return false;
  try {
    const image = sharp(input, { failOn: 'warning', limitInputPixels: width * height, pages: 1 });
    const meta = await image.metadata();
    if (
      meta.format !== 'jpeg' ||
      meta.width !== width ||
      meta.height !== height ||
      meta.isProgressive ||
      meta.hasProfile ||
      meta.hasAlpha ||
      meta.orientation !== undefined ||
      meta.exif ||
      meta.icc ||
      meta.iptc ||
      meta.xmp ||
      meta.space !== 'srgb' ||
      meta.channels !== 3
    ) {
      return false;
    }
    const decoded = await image.raw().toBuffer({ resolveWithObject: true });
    return decoded.info.width === width && decoded.info.height === height;
  } catch {
    return false;
  }
}

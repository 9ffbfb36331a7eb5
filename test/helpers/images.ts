import zlib from 'node:zlib';
import sharp from 'sharp';

/** A real JPEG of the given size with a gradient (so it does not compress to nothing). */
export async function jpeg(
  width = 640,
  height = 480,
  options: { gps?: boolean; orientation?: number } = {},
) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i += 3) {
    const p = i / 3;
    raw[i] = (p % width) % 256;
    raw[i + 1] = Math.floor(p / width) % 256;
    raw[i + 2] = (p * 7) % 256;
  }
  let img = sharp(raw, { raw: { width, height, channels: 3 } });
  if (options.gps) {
    img = img.withExif({
      IFD0: { Make: 'SpyCam', Model: 'Tracker 3000' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    });
  }
  if (options.orientation) img = img.withMetadata({ orientation: options.orientation });
  return img.jpeg({ quality: 85 }).toBuffer();
}

export function png(width = 64, height = 64) {
  return sharp({
    create: { width, height, channels: 4, background: { r: 200, g: 120, b: 40, alpha: 0.5 } },
  })
    .png()
    .toBuffer();
}

/** A tiny PNG whose header claims width × height pixels: an image bomb if decoded. */
export async function pngBomb(width = 100_000, height = 100_000): Promise<Buffer> {
  const small = await png(1, 1);
  const bomb = Buffer.from(small);
  // IHDR data starts at byte 16: width (4 bytes), height (4 bytes); CRC covers type + data.
  bomb.writeUInt32BE(width, 16);
  bomb.writeUInt32BE(height, 20);
  bomb.writeUInt32BE(zlib.crc32(bomb.subarray(12, 29)), 29);
  return bomb;
}

export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
);

export const HTML = Buffer.from(
  '<!doctype html><html><body><script>alert(1)</script></body></html>',
);

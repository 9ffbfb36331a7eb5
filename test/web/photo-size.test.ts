import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_SIDE, fitInside, formatBytes, jpegName } from '../../web/src/pwa/photo-size.ts';

describe('making a photo smaller before it is sent', () => {
  it('scales the longest side down to 2048 px and keeps the aspect', () => {
    expect(PHOTO_MAX_SIDE).toBe(2048);
    expect(fitInside(4032, 3024, PHOTO_MAX_SIDE)).toEqual({ width: 2048, height: 1536 });
    expect(fitInside(3024, 4032, PHOTO_MAX_SIDE)).toEqual({ width: 1536, height: 2048 });
    expect(fitInside(9000, 1000, PHOTO_MAX_SIDE)).toEqual({ width: 2048, height: 228 });
  });

  it('never makes a photo that already fits any larger', () => {
    expect(fitInside(1200, 900, PHOTO_MAX_SIDE)).toEqual({ width: 1200, height: 900 });
    expect(fitInside(2048, 2048, PHOTO_MAX_SIDE)).toEqual({ width: 2048, height: 2048 });
  });

  it('names the sent file as a JPEG, keeping the rest of its name', () => {
    expect(jpegName('IMG_0001.HEIC')).toBe('IMG_0001.jpg');
    expect(jpegName('bottle.photo.png')).toBe('bottle.photo.jpg');
    expect(jpegName('no-extension')).toBe('no-extension.jpg');
    expect(jpegName('.png')).toBe('photo.jpg');
  });

  it('says sizes as people read them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(548_000)).toBe('548 KB');
    expect(formatBytes(2_822_636)).toBe('2.8 MB');
  });
});

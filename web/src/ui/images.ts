/**
 * Photo and avatar files must be images. The browser's judgement (the file's
 * type) is checked before anything is sent; the server judges the content again.
 */
export const PHOTO_NOT_IMAGE = 'The photo must be an image file';

export function isImageFile(file: Pick<File, 'type'>): boolean {
  return /^image\//i.test(file.type);
}

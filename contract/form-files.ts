import { z } from 'zod';

/**
 * The file fields of multipart forms. A form of the route table (`form` in
 * contract/routes/route.ts) is a zod object: its text fields are strings as a form sends them,
 * coerced by their schemas, and its files are declared with `formFile`, which records the most
 * bytes each may hold. The contract router (src/http/form.ts) reads the files by these
 * declarations, and a form's body limit is the sum of them and room for its text fields
 * (`bodyLimitOf`).
 */

const MB = 1024 * 1024;

/** The most bytes of an image a form takes (a photo, an avatar); the media module holds to it too. */
export const IMAGE_MAX_BYTES = 15 * MB;

/** What the table knows of one file field: the most bytes its one file may hold. */
export interface FormFileDef {
  maxBytes: number;
}

/** The declared file fields, by their schema (the one `formFile` wraps in `optional`). */
const declared = z.registry<FormFileDef>();

/**
 * A file field: one file of at most `maxBytes` (a larger one is refused with a 413 as it
 * streams). It may be left out, and an empty file is no file.
 */
export function formFile(maxBytes: number, what: string) {
  const file = z
    .file()
    .max(maxBytes)
    .meta({ description: `${what} of at most ${maxBytes / MB} MB` });
  declared.add(file, { maxBytes });
  return file.optional();
}

/** An image field: a photo or an avatar, judged by its content by the media module. */
export const imageFile = () => formFile(IMAGE_MAX_BYTES, 'A JPEG, PNG, WebP or AVIF image');

/** The declared file fields of a form, by name (the others are its text fields). */
export function formFilesOf(form: z.ZodObject): Record<string, FormFileDef> {
  const files: Record<string, FormFileDef> = {};
  for (const [name, field] of Object.entries(form.shape)) {
    const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
    const file = declared.get(inner as z.ZodType);
    if (file) files[name] = file;
  }
  return files;
}

/** The names of a form's file fields, as types: those declared with `formFile`. */
export type FormFileKeys<S extends z.ZodObject> = {
  [K in keyof S['shape']]: S['shape'][K] extends z.ZodOptional<z.ZodFile> ? K : never;
}[keyof S['shape']] &
  string;

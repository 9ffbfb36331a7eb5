import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { Context } from 'hono';
import { DomainError, badRequest } from '../domain-error.ts';
import { MAX_IMAGE_BYTES } from '../media/images.ts';
import { incompleteBody } from './body-limit.ts';

export type FormFields = Record<string, string>;

const LIMITS = {
  /** One byte over the image limit, so that an oversized file is detected, not truncated. */
  fileSize: MAX_IMAGE_BYTES + 1,
  fieldSize: 64 * 1024,
  fields: 50,
  parts: 60,
};

/**
 * Reads multipart or urlencoded form data as a stream (busboy): text fields as strings, and the
 * named file fields as bytes, each file copied once. A file where text is expected, or text
 * where a file is expected, is refused; so is a file over the image size limit, as soon as it
 * crosses it.
 */
export async function readForm(
  c: Context,
  fileFields: readonly string[],
): Promise<{ fields: FormFields; files: Record<string, Uint8Array> }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
    throw new DomainError(415, 'Send the request as form data (multipart/form-data)');
  }
  const fields: FormFields = {};
  const files: Record<string, Uint8Array> = {};
  const body = c.req.raw.body;
  if (!body) return { fields, files };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: { ...LIMITS, files: fileFields.length },
    });
  } catch {
    throw badRequest('The form data could not be read');
  }
  const input = Readable.fromWeb(body as WebReadableStream<Uint8Array>);

  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (error: DomainError) => {
      if (failed) return;
      failed = true;
      input.unpipe(parser);
      input.destroy();
      reject(error);
    };
    parser.on('file', (name, stream) => {
      if (!fileFields.includes(name)) {
        stream.resume();
        fail(badRequest(`${name} must be text, not a file`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', () =>
        fail(
          new DomainError(413, `The ${name} must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`),
        ),
      );
      stream.on('close', () => {
        // An empty file input means "no file".
        if (!failed && size > 0) files[name] = Buffer.concat(chunks, size);
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(badRequest(`${name} is too long`));
      if (fileFields.includes(name)) {
        // An empty file input may arrive as an empty text field: also "no file".
        if (value !== '') fail(badRequest(`${name} must be a file`));
        return;
      }
      fields[name] = value;
    });
    parser.on('partsLimit', () => fail(badRequest('The form has too many fields')));
    parser.on('filesLimit', () => fail(badRequest('The form has too many files')));
    parser.on('fieldsLimit', () => fail(badRequest('The form has too many fields')));
    parser.on('error', () => fail(badRequest('The form data could not be read')));
    // The body limit (src/http/body-limit.ts) ends an oversized stream with its 413.
    input.on('error', (error) => fail(error instanceof DomainError ? error : incompleteBody()));
    parser.on('close', () => {
      if (!failed) resolve();
    });
    input.pipe(parser);
  });
  return { fields, files };
}

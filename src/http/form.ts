import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { Context } from 'hono';
import { z } from 'zod';
import { formFilesOf, type FormFileDef } from '../../contract/form-files.ts';
import { DomainError, badRequest } from '../domain-error.ts';
import { parseWith } from './body.ts';
import { incompleteBody } from './body-limit.ts';

/** A form as the contract router hands it to a handler: the parsed fields and the files' bytes. */
export interface ReadForm {
  fields: Record<string, unknown>;
  files: Record<string, Uint8Array>;
}

const LIMITS = { fieldSize: 64 * 1024, fields: 50, parts: 60 };

/**
 * The reader of one route's form (its `form` in the route table), made once when the route is
 * registered: it reads multipart or urlencoded form data as a stream (busboy), each declared
 * file as bytes (copied once) and the text fields through the form's schema. A file where text
 * is expected, text where a file is expected, a second file in one field and a file over its
 * declared size (as soon as it crosses it) are refused.
 */
export function formReader(form: z.ZodObject): (c: Context) => Promise<ReadForm> {
  const declared = formFilesOf(form);
  for (const [name, field] of Object.entries(form.shape)) {
    const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
    if (inner instanceof z.ZodFile && !declared[name]) {
      throw new Error(`The form's file field ${name} is not declared with formFile`);
    }
  }
  const files = Object.fromEntries(Object.keys(declared).map((name) => [name, true]));
  const fieldsSchema = form.omit(files as never);
  return async (c) => {
    const { fields, files } = await readParts(c, declared);
    return { fields: parseWith(fieldsSchema, fields), files };
  };
}

async function readParts(
  c: Context,
  declared: Record<string, FormFileDef>,
): Promise<{ fields: Record<string, string>; files: Record<string, Uint8Array> }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
    throw new DomainError(415, 'Send the request as form data (multipart/form-data)');
  }
  const fields: Record<string, string> = {};
  const files: Record<string, Uint8Array> = {};
  const body = c.req.raw.body;
  if (!body) return { fields, files };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: {
        ...LIMITS,
        files: Object.keys(declared).length,
        // One byte over the largest file's limit, so that such a file is refused, not truncated.
        fileSize: Math.max(0, ...Object.values(declared).map((file) => file.maxBytes)) + 1,
      },
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
    const received = new Set<string>();
    parser.on('file', (name, stream) => {
      const file = declared[name];
      if (!file) {
        stream.resume();
        fail(badRequest(`${name} must be text, not a file`));
        return;
      }
      if (received.has(name)) {
        stream.resume();
        fail(badRequest('The form has too many files'));
        return;
      }
      received.add(name);
      const chunks: Buffer[] = [];
      let size = 0;
      const tooLarge = () =>
        fail(new DomainError(413, `The ${name} must be at most ${megabytes(file.maxBytes)} MB`));
      // busboy tells of the largest limit as it parses; a smaller one is counted here.
      stream.on('limit', tooLarge);
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > file.maxBytes) tooLarge();
        else chunks.push(chunk);
      });
      stream.on('close', () => {
        // An empty file input means "no file".
        if (!failed && size > 0) files[name] = Buffer.concat(chunks, size);
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(badRequest(`${name} is too long`));
      if (declared[name]) {
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

const megabytes = (bytes: number) => bytes / 1024 / 1024;

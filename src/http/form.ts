import type { Context } from 'hono';
import { DomainError, badRequest } from '../domain-error.ts';

export type FormFields = Record<string, string>;

/**
 * Reads multipart or urlencoded form data: text fields as strings, and the named file fields as
 * bytes. A file where text is expected, or text where a file is expected, is refused.
 */
export async function readForm(
  c: Context,
  fileFields: readonly string[],
): Promise<{ fields: FormFields; files: Record<string, Uint8Array> }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
    throw new DomainError(415, 'Send the request as form data (multipart/form-data)');
  }
  let body: Record<string, string | File | (string | File)[]>;
  try {
    body = await c.req.parseBody();
  } catch {
    throw badRequest('The form data could not be read');
  }
  const fields: FormFields = {};
  const files: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(body)) {
    const single = Array.isArray(value) ? value[value.length - 1] : value;
    if (single === undefined) continue;
    if (fileFields.includes(key)) {
      if (typeof single === 'string') {
        // An empty file input arrives as an empty string: treat it as "no file".
        if (single === '') continue;
        throw badRequest(`${key} must be a file`);
      }
      if (single.size === 0) continue;
      files[key] = new Uint8Array(await single.arrayBuffer());
    } else {
      if (typeof single !== 'string') throw badRequest(`${key} must be text, not a file`);
      fields[key] = single;
    }
  }
  return { fields, files };
}

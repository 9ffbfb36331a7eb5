// docs/api.md as `npm run docs:api` writes it: the reference rendered from the OpenAPI document
// (src/openapi/reference.ts), formatted as prettier formats the repository.
import path from 'node:path';
import prettier from 'prettier';
import { buildOpenApiDocument } from '../src/openapi/document.ts';
import { renderReference } from '../src/openapi/reference.ts';

export const API_REFERENCE = path.resolve(import.meta.dirname, '..', 'docs', 'api.md');

export async function apiReference(): Promise<string> {
  const markdown = renderReference(await buildOpenApiDocument());
  const config = await prettier.resolveConfig(API_REFERENCE);
  return prettier.format(markdown, { ...config, filepath: API_REFERENCE });
}

// `npm run docs:api`: writes docs/api.md, the API reference for people, from the route table.
import fs from 'node:fs';
import { API_REFERENCE, apiReference } from './api-reference.ts';

fs.writeFileSync(API_REFERENCE, await apiReference());
console.log(`Wrote ${API_REFERENCE}`);

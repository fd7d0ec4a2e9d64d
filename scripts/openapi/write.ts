/**
 * `npm run openapi`: writes the service's OpenAPI document to `packages/client/openapi.json`, the file the
 * merchant SDK's types are generated from, and regenerates those types (`npm run generate -w
 * packages/client`). Run after changing a route or schema.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { servedOpenApiDocument } from './servedDocument.ts';

const target = join(import.meta.dirname, '..', '..', 'packages', 'client', 'openapi.json');
writeFileSync(target, servedOpenApiDocument());
console.log(`wrote ${target}`);

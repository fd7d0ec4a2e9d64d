/**
 * Writes `src/generated/schema.ts`: the types of the service's OpenAPI document (every route, its
 * parameters, bodies and answers), made by openapi-typescript. Run after changing a route or schema:
 * `npm run generate -w packages/client`. A unit test fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedSchema } from './schemaSource.ts';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'generated', 'schema.ts');
writeFileSync(target, await generatedSchema());
console.log(`wrote ${target}`);

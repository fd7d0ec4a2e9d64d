/**
 * Writes `src/generated/schema.ts`: the types of the committed OpenAPI document `openapi.json` (every
 * route, its parameters, bodies and answers), made by openapi-typescript. `npm run openapi` at the root
 * writes the document from the service and runs this; test/integration/clientSchema.test.ts fails while
 * either file is stale.
 */
import { writeFileSync } from 'node:fs';
import { generatedSchemaPath, schemaTypes } from './schemaTypes.ts';

writeFileSync(generatedSchemaPath, await schemaTypes());
console.log(`wrote ${generatedSchemaPath}`);

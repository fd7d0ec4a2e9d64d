/**
 * The SDK is generated from the committed OpenAPI document: the document must be the one the service serves,
 * and the generated types those of the document, so neither can drift from the API silently.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSchemaPath, schemaTypes } from '../../packages/client/scripts/schemaTypes.ts';
import { servedOpenApiDocument } from '../../scripts/openapi/servedDocument.ts';

const committedOpenApiPath = join(import.meta.dirname, '../../packages/client/openapi.json');

describe('merchant SDK sources', () => {
  it('the committed OpenAPI document is the one the service serves', () => {
    expect(
      readFileSync(committedOpenApiPath, 'utf8'),
      'packages/client/openapi.json differs from the served document: run `npm run openapi`',
    ).toBe(servedOpenApiDocument());
  });

  it('the generated types are those of the committed document', async () => {
    expect(
      readFileSync(generatedSchemaPath, 'utf8'),
      'packages/client/src/generated/schema.ts is stale: run `npm run generate -w packages/client`',
    ).toBe(await schemaTypes());
  });
});

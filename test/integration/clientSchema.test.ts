/** The SDK's generated types are those of the live document: regenerate them after an API change. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedSchema } from '../../packages/client/scripts/schemaSource.ts';

const committed = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../packages/client/src/generated/schema.ts',
);

describe('merchant SDK types', () => {
  it('match the OpenAPI document the service serves (npm run generate -w packages/client)', async () => {
    expect(readFileSync(committed, 'utf8')).toBe(await generatedSchema());
  });
});

/** The OpenAPI document a development service with its sandbox serves, as the text committed for the SDK. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument, loadConfig } from '@checkout/server';

/** What `packages/client/openapi.json` should hold. */
export function servedOpenApiDocument(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-document-'));
  try {
    const config = loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: 'http://localhost:3000',
      SANDBOX_ENABLED: 'true',
    });
    return `${JSON.stringify(buildOpenApiDocument({ config }), null, 2)}\n`;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

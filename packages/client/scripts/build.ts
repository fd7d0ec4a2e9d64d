/**
 * Builds the publishable package into `dist/`: JavaScript (ES2022 modules) with `.d.ts` from `src/` and from
 * the service's webhook signer in packages/core, and a package.json whose `#webhookSignature` import names
 * the built signer instead of the workspace package. `npm pack ./dist` then makes the tarball merchants install; inside this repository
 * the workspace keeps importing the TypeScript sources.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });

const source = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
  license?: string;
  dependencies: Record<string, string>;
};
const manifest = {
  name: '@stable-checkout/client',
  version: source.version,
  description: source.description,
  license: source.license ?? 'MIT',
  type: 'module',
  engines: { node: '>=20' },
  exports: { '.': { types: './client/src/index.d.ts', import: './client/src/index.js' } },
  imports: {
    '#webhookSignature': {
      types: './core/src/webhookSignature.d.ts',
      import: './core/src/webhookSignature.js',
    },
  },
  main: './client/src/index.js',
  types: './client/src/index.d.ts',
  sideEffects: false,
  dependencies: { 'openapi-fetch': source.dependencies['openapi-fetch'] },
};
writeFileSync(join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(here, 'README.md'), join(dist, 'README.md'));
console.log(`built ${manifest.name}@${manifest.version} in ${dist}`);

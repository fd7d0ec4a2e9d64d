/**
 * Builds the publishable package into `dist/`: JavaScript (ES2022 modules) with `.d.ts` from `src/`, and
 * a package.json for it. `npm pack ./dist` then makes the tarball merchants install; inside this repository
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
  exports: { '.': { types: './index.d.ts', import: './index.js' } },
  main: './index.js',
  types: './index.d.ts',
  sideEffects: false,
  dependencies: { 'openapi-fetch': source.dependencies['openapi-fetch'] },
};
writeFileSync(join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(here, 'README.md'), join(dist, 'README.md'));
console.log(`built ${manifest.name}@${manifest.version} in ${dist}`);

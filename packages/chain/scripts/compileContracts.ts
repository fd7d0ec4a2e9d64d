/**
 * Regenerates `src/artifacts/<Contract>.json` from `src/contracts/*.sol`:
 * `node packages/chain/scripts/compileContracts.ts` (or `npm run compile-contracts -w @checkout/chain`).
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compileContracts } from '../src/contracts/compile.ts';

const written: string[] = [];
for (const artifact of await compileContracts()) {
  const file = fileURLToPath(new URL(`../src/artifacts/${artifact.contractName}.json`, import.meta.url));
  await writeFile(file, `${JSON.stringify(artifact, null, 2)}\n`);
  written.push(file);
  console.log(`${artifact.contractName}: ${(artifact.bytecode.length - 2) / 2} bytes -> ${file}`);
}

// Formatted as the repository's Biome check expects, so regenerating leaves a clean tree.
const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
const formatted = spawnSync(process.execPath, [biome, 'format', '--write', ...written], { stdio: 'inherit' });
if (formatted.status !== 0) process.exitCode = 1;

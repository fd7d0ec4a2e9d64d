/**
 * Regenerates `src/artifacts/<Contract>.json` from `src/contracts/*.sol`:
 * `node packages/chain/scripts/compileContracts.ts` (or `npm run compile-contracts -w @checkout/chain`).
 */
import { writeFile } from 'node:fs/promises';
import { compileContracts } from '../src/contracts/compile.ts';

for (const artifact of await compileContracts()) {
  const file = new URL(`../src/artifacts/${artifact.contractName}.json`, import.meta.url);
  await writeFile(file, `${JSON.stringify(artifact, null, 2)}\n`);
  console.log(`${artifact.contractName}: ${(artifact.bytecode.length - 2) / 2} bytes -> ${file.pathname}`);
}

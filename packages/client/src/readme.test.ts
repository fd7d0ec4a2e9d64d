/**
 * The README's checked code: each block marked `<!-- checked: <file>#<region> -->` is the region of that file
 * between `// #region <region>` and `// #endregion`, character for character. The file is compiled by
 * `tsc -b` and run by the tests, so the README shows code that type-checks and works.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const readme = readFileSync(join(root, 'packages/client/README.md'), 'utf8');
const checked = [...readme.matchAll(/<!-- checked: (\S+)#(\S+) -->\n```ts\n([\s\S]*?)```/g)];

/** The lines of `file` inside its region `name`. */
function regionOf(file: string, name: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  const start = text.indexOf(`// #region ${name}\n`);
  if (start < 0) throw new Error(`${file} has no region ${name}`);
  const from = start + `// #region ${name}\n`.length;
  return text.slice(from, text.indexOf('// #endregion', from));
}

describe("the SDK README's checked code", () => {
  it('has the handler of every webhook event in it', () => {
    expect(checked.map((m) => m[2])).toEqual(['types', 'status', 'handle']);
  });

  it.each(checked.map((m) => [`${m[1]}#${m[2]}`, m] as const))('%s is the file’s own code', (_, match) => {
    const [, file, region, block] = match;
    expect(block).toBe(regionOf(file!, region!));
  });
});

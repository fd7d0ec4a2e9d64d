/**
 * What the console's first load costs on the wire: the built scripts' brotli and gzip sizes (the forms the
 * service sends, console/build/assets.ts) for the sign-in page (the entry and its imports) and for each page
 * after sign-in (plus that page's chunk and its imports, less what the entry already brought). Run after
 * `npm run build -w console`: `node console/build/size.ts` prints them; `firstLoadBytes` is what the console
 * test holds to the 60 KB budget.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConsoleManifest } from './assets.ts';

const distDir = fileURLToPath(new URL('../dist/', import.meta.url));

/** The bytes of `file` as sent with `coding` (the plain file when its compressed form was not smaller). */
function wireBytes(file: string, coding: 'br' | 'gz'): number {
  const path = join(distDir, file);
  try {
    return statSync(`${path}.${coding}`).size;
  } catch {
    return statSync(path).size;
  }
}

/** The pages, one module each in `src/pages/`: each is built as a lazily loaded chunk of its name. */
function pageNames(): string[] {
  const dir = fileURLToPath(new URL('../src/pages/', import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -'.ts'.length));
}

/** Brotli and gzip bytes of the scripts each first view loads: `sign-in`, then each page by name. */
export function firstLoadBytes(): Record<string, { br: number; gzip: number }> {
  const manifest = JSON.parse(
    readFileSync(join(distDir, 'console-manifest.json'), 'utf8'),
  ) as ConsoleManifest;
  const shell = [manifest.entry, ...manifest.imports];
  const sum = (files: string[]) => ({
    br: files.reduce((n, f) => n + wireBytes(f, 'br'), 0),
    gzip: files.reduce((n, f) => n + wireBytes(f, 'gz'), 0),
  });
  const views: Record<string, { br: number; gzip: number }> = { 'sign-in': sum(shell) };
  // A module of src/pages that no page loads lazily (a part of one, such as the timeline) is no view.
  for (const page of pageNames().filter((name) => manifest.lazy[name])) {
    const files = manifest.lazy[page]!;
    views[page] = sum([...new Set([...shell, ...files])]);
  }
  return views;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [view, bytes] of Object.entries(firstLoadBytes()))
    console.log(
      `${view.padEnd(10)} ${String(bytes.br).padStart(7)} B brotli ${String(bytes.gzip).padStart(7)} B gzip`,
    );
}

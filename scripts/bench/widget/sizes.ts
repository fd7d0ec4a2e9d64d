/** Raw, gzip and brotli sizes of built files, and the files a module imports statically. */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Byte counts of one file or a group of files. */
export interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

/** Sizes of one file: raw, gzip level 9, brotli quality 11. */
export function sizeOf(path: string): Size {
  const bytes = readFileSync(path);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length,
  };
}

/** Sum of per-file sizes (each file compressed on its own, as served). */
export function sumSizes(sizes: Size[]): Size {
  return sizes.reduce(
    (a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }),
    {
      raw: 0,
      gzip: 0,
      brotli: 0,
    },
  );
}

// `import{…}from"./x.js"`, `import"./x.js"`, `export{…}from"./x.js"`, `export*from"./x.js"`; not `import(…)`.
const staticImport = /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{][^"'`;()]*?from\s*)?["']([^"']+)["']/g;

/** Relative specifiers a module's code imports or re-exports statically. */
function staticSpecifiers(code: string): string[] {
  return [...code.matchAll(staticImport)].map((m) => m[1] as string).filter((s) => s.startsWith('.'));
}

/** The entry and every file it reaches through static imports, as paths relative to `dir`, entry first. */
export function staticClosure(dir: string, entry: string): string[] {
  const seen = new Set<string>();
  const queue = [normalize(entry)];
  for (let i = 0; i < queue.length && i < 1000; i++) {
    const file = queue[i] as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dir, file), 'utf8');
    for (const spec of staticSpecifiers(code)) {
      const target = relative(dir, join(dir, dirname(file), spec));
      if (!seen.has(target)) queue.push(target);
    }
  }
  return [...seen];
}

/**
 * How the console is served: every built script gets a content-hashed name under `chunks/`, is written
 * beside its brotli (`.br`) and gzip (`.gz`) forms (so the service never compresses on a request), and
 * `console-manifest.json` names the entry script and what its first page loads, for the service's HTML
 * shell (server/src/routes/consolePage.ts) and the size check (console/build/size.ts).
 */
import { join } from 'node:path';
import { precompress } from '@checkout/build/precompress';
import type { OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** Hashed files, relative to `dist/`. */
export interface ConsoleManifest {
  /** The module script the shell loads. */
  entry: string;
  /** Every script the entry imports statically (fetched with it on the first load). */
  imports: string[];
  /** Each lazily loaded module (a page, a language, the wallet) by name: its file and what it imports. */
  lazy: Record<string, string[]>;
}

/** Name of the manifest in `dist/`. */
const manifestFile = 'console-manifest.json';

/** Writes the manifest and the compressed forms of every script. */
export function consoleAssets(distDir: string): Plugin {
  return {
    name: 'console-assets',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) throw new Error('the console build has no entry');
      /** The files `chunk` imports statically, directly or through another. */
      const importsOf = (chunk: OutputChunk, found = new Set<string>()): string[] => {
        for (const name of chunk.imports) {
          if (found.has(name)) continue;
          found.add(name);
          const next = chunks.find((c) => c.fileName === name);
          if (next) importsOf(next, found);
        }
        return [...found];
      };
      const lazy = Object.fromEntries(
        chunks.filter((c) => c.isDynamicEntry).map((c) => [c.name, [c.fileName, ...importsOf(c)]]),
      );
      const manifest: ConsoleManifest = { entry: entry.fileName, imports: importsOf(entry), lazy };
      this.emitFile({
        type: 'asset',
        fileName: manifestFile,
        source: `${JSON.stringify(manifest, null, 2)}\n`,
      });
    },
    writeBundle(options, bundle) {
      const dir = options.dir ?? distDir;
      for (const fileName of Object.keys(bundle))
        if (fileName.endsWith('.js')) precompress(join(dir, fileName));
    },
  };
}

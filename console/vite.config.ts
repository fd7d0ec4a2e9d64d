import { fileURLToPath } from 'node:url';
import { minify } from 'rolldown/utils';
import { defineConfig, type Plugin } from 'vite';
import { consoleAssets } from './build/assets.ts';

const distDir = fileURLToPath(new URL('./dist/', import.meta.url));

// Vite keeps whitespace in ES library output; this pass minifies it (as the element's build does).
const minifyEsOutput: Plugin = {
  name: 'minify-es-output',
  apply: 'build',
  enforce: 'post',
  async generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const result = await minify(chunk.fileName, chunk.code, {
        module: true,
        compress: true,
        mangle: { toplevel: true },
      });
      chunk.code = result.code;
    }
  },
};

// One ES build into dist/: the shell (sign-in, navigation, texts in English) is the entry; every page, the
// Spanish and Portuguese texts and the wallet are chunks fetched when first wanted. Every file is
// content-hashed under chunks/; the service's HTML shell names the entry from console-manifest.json.
export default defineConfig({
  plugins: [minifyEsOutput, consoleAssets(distDir)],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    reportCompressedSize: false,
    lib: {
      entry: { console: 'src/main.ts' },
      formats: ['es'],
      fileName: (_format, name) => `chunks/${name}-[hash].js`,
    },
    rollupOptions: { output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
  },
});

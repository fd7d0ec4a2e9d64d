import { fileURLToPath } from 'node:url';
import { minifyEsOutput } from '@checkout/build/minifyEsOutput';
import { defineConfig } from 'vite';
import { consoleAssets } from './build/assets.ts';

const distDir = fileURLToPath(new URL('./dist/', import.meta.url));

// One ES build into dist/: the shell (sign-in, navigation, texts in English) is the entry; every page, the
// Spanish and Portuguese texts and the wallet are chunks fetched when first wanted. Every file is
// content-hashed under chunks/; the service's HTML shell names the entry from console-manifest.json.
export default defineConfig({
  plugins: [minifyEsOutput(), consoleAssets(distDir)],
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

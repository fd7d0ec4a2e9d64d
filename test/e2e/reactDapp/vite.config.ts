/** Builds the React dapp of the browser suite into `DAPP_OUT_DIR` as `dapp.js` plus chunks. */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  logLevel: 'error',
  build: {
    outDir: process.env.DAPP_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    modulePreload: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: fileURLToPath(new URL('./main.ts', import.meta.url)),
      output: { entryFileNames: 'dapp.js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});

import { defineConfig } from 'vite';

// Library build: one ES module and one classic script for merchants' pages.
export default defineConfig({
  build: {
    lib: {
      entry: 'src/index.ts',
      name: 'CryptoCheckout',
      formats: ['es', 'iife'],
      fileName: 'crypto-checkout',
    },
    outDir: 'dist',
    emptyOutDir: true,
  },
});

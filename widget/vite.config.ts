import { minify } from 'rolldown/utils';
import { defineConfig, type Plugin } from 'vite';

// Vite keeps whitespace in ES library output; this pass minifies those files like the classic script.
const minifyEsOutput: Plugin = {
  name: 'minify-es-output',
  apply: 'build',
  enforce: 'post',
  async generateBundle(options, bundle) {
    if (options.format !== 'es') return;
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

// Two builds into dist/: `vite build` makes the ES module (shell + lazy wallet entry and chunks);
// `vite build --mode iife` adds the classic script, which imports the same wallet file on demand.
export default defineConfig(({ mode }) => {
  const iife = mode === 'iife';
  return {
    define: { __WIDGET_IIFE__: JSON.stringify(iife) },
    plugins: [minifyEsOutput],
    build: {
      outDir: 'dist',
      emptyOutDir: !iife,
      target: 'es2022',
      modulePreload: false,
      reportCompressedSize: false,
      lib: iife
        ? {
            entry: 'src/index.ts',
            name: 'CryptoCheckout',
            formats: ['iife'],
            fileName: () => 'crypto-checkout.iife.js',
          }
        : {
            entry: {
              'crypto-checkout': 'src/index.ts',
              'crypto-checkout-wallet': 'src/wallet/wallet-flow.ts',
            },
            formats: ['es'],
            fileName: (_format, name) => `${name}.js`,
          },
      rollupOptions: iife ? {} : { output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
    },
  };
});

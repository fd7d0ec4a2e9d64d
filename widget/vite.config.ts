import { fileURLToPath } from 'node:url';
import { minifyEsOutput } from '@checkout/build/minifyEsOutput';
import { defineConfig, type Plugin } from 'vite';
import { readManifest, widgetAssets } from './build/assets.ts';

const distDir = fileURLToPath(new URL('./dist/', import.meta.url));

/**
 * The shadow styles ship without indentation and line breaks: whitespace runs become one space, and
 * none is left next to `{`, `}` or `;`, or after `:` (never before one, where it can be a descendant
 * combinator); the style sheet parses to the same rules. Only the element's own `*.styles.ts` literals,
 * and only without interpolations.
 */
function compactCss(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .trim();
}

const compactStyles: Plugin = {
  name: 'compact-styles',
  apply: 'build',
  enforce: 'pre',
  transform(code, id) {
    if (!/\/widget\/src\/.+\.styles\.ts$/.test(id)) return null;
    return code.replace(/\bcss`([^`$\\]*)`/g, (_, text: string) => `css\`${compactCss(text)}\``);
  },
};

// Three builds into dist/: `vite build` makes the ES module (shell + lazy payment, wallet, QR and texts entries
// and chunks); `vite build --mode iife` adds the classic script, which imports the same lazy files on demand;
// `vite build --mode refunds` adds the hosted refund pages' module scripts, bundled apart so that sharing code
// with them never splits the element's first script. Every script is content-hashed under chunks/; the public
// names are loaders (build/assets.ts).
export default defineConfig(({ mode }) => {
  const iife = mode === 'iife';
  const refunds = mode === 'refunds';
  // The classic script sits beside the lazy entries in chunks/, so it imports them by hashed name.
  const manifest = iife ? readManifest(distDir) : undefined;
  const file = (name: string | undefined) => (name ?? '').replace(/^chunks\//, '');
  const files = {
    payment: file(manifest?.payment),
    wallet: file(manifest?.wallet),
    qr: file(manifest?.qr),
    en: file(manifest?.messages.en),
    es: file(manifest?.messages.es),
    pt: file(manifest?.messages.pt),
  };
  return {
    define: {
      __WIDGET_IIFE__: JSON.stringify(iife),
      __WIDGET_FILES__: JSON.stringify(files),
    },
    plugins: [
      compactStyles,
      minifyEsOutput(),
      widgetAssets(iife ? 'iife' : refunds ? 'refunds' : 'es', distDir),
    ],
    build: {
      outDir: 'dist',
      emptyOutDir: !iife && !refunds,
      target: 'es2022',
      modulePreload: false,
      reportCompressedSize: false,
      lib: iife
        ? {
            entry: 'src/index.ts',
            name: 'CryptoCheckout',
            formats: ['iife'],
            fileName: () => 'chunks/crypto-checkout.iife-[hash].js',
          }
        : refunds
          ? {
              entry: {
                'refund-claim': 'src/refund-claim/refund-claim.ts',
                'refund-pay': 'src/refund-pay/refund-pay.ts',
              },
              formats: ['es'],
              fileName: (_format, name) => `chunks/${name}-[hash].js`,
            }
          : {
              entry: {
                'crypto-checkout': 'src/index.ts',
                'crypto-checkout-payment': 'src/crypto-checkout/checkout-payment.ts',
                'crypto-checkout-wallet': 'src/wallet/wallet-flow.ts',
                'crypto-checkout-qr': 'src/payment-request/payment-request.ts',
                'crypto-checkout-en': 'src/i18n/en.ts',
                'crypto-checkout-es': 'src/i18n/es.ts',
                'crypto-checkout-pt': 'src/i18n/pt.ts',
              },
              formats: ['es'],
              fileName: (_format, name) => `chunks/${name}-[hash].js`,
            },
      rollupOptions: iife
        ? {}
        : // The refund pages' own chunks carry a prefix: they never share a name with the element's.
          {
            output: {
              chunkFileNames: refunds ? 'chunks/refunds-[name]-[hash].js' : 'chunks/[name]-[hash].js',
            },
          },
    },
  };
});

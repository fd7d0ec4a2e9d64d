/**
 * How the element is served: every built script gets a content-hashed name under `chunks/`, two small
 * loaders keep the public names (`crypto-checkout.iife.js`, `crypto-checkout.js`) pointing at the current
 * hashes, `widget-manifest.json` names the hashed entries for the server, and every script is written
 * beside its brotli (`.br`) and gzip (`.gz`) forms so the server never compresses on a request.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompress } from '@checkout/build/precompress';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** Hashed entry files, relative to `dist/`. */
export interface WidgetManifest {
  /** The classic script (IIFE). */
  classic?: string;
  /** The ES module entry. */
  module: string;
  /** The checkout's payment (session, events, countdown, review, outcome): both entries import it when it starts. */
  payment: string;
  /** The wallet module both entries import on demand. */
  wallet: string;
  /** The payment request (QR code) module both entries import on demand. */
  qr: string;
  /** The texts of each language, imported the first time a page uses it. */
  messages: { en: string; es: string; pt: string };
  /** The hosted refund pages' module scripts (their own build): the customer's claim, the merchant's payment. */
  refunds?: { claim: string; pay: string };
}

/** Name of the manifest in `dist/`. */
const manifestFile = 'widget-manifest.json';

/** Reads the manifest the ES build wrote (the classic build needs the lazy entries' hashed names). */
export function readManifest(distDir: string): WidgetManifest {
  try {
    return JSON.parse(readFileSync(join(distDir, manifestFile), 'utf8')) as WidgetManifest;
  } catch (error) {
    throw new Error(`${manifestFile} is missing: run \`vite build\` before \`vite build --mode iife\``, {
      cause: error,
    });
  }
}

function entry(bundle: OutputBundle, name: string): OutputChunk {
  const chunk = Object.values(bundle).find(
    (c): c is OutputChunk => c.type === 'chunk' && c.isEntry && c.name === name,
  );
  if (!chunk) throw new Error(`the build has no entry named ${name}`);
  return chunk;
}

/**
 * The classic loader: adds the hashed script after itself, resolved against its own URL, passing on a
 * CSP nonce and the crossorigin mode the merchant's tag carries. An inserted script is fetched at low
 * priority; `fetchPriority = "high"` takes back the time that costs the first render (bench:widget).
 */
function classicLoader(target: string): string {
  return `(function(){var s=document.currentScript,e=document.createElement("script");e.fetchPriority="high";e.src=new URL(${JSON.stringify(
    target,
  )},s&&s.src||location.href).href;if(s){if(s.nonce)e.nonce=s.nonce;if(s.crossOrigin!==null)e.crossOrigin=s.crossOrigin}document.head.appendChild(e)})();\n`;
}

/**
 * The plugin for one of the three builds: `es` writes the manifest and the module loader, `iife` completes
 * both, `refunds` adds the refund pages' entries to the manifest.
 */
export function widgetAssets(build: 'es' | 'iife' | 'refunds', distDir: string): Plugin {
  return {
    name: 'widget-assets',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const emit = (fileName: string, source: string) => this.emitFile({ type: 'asset', fileName, source });
      let manifest: WidgetManifest;
      if (build === 'es') {
        manifest = {
          module: entry(bundle, 'crypto-checkout').fileName,
          payment: entry(bundle, 'crypto-checkout-payment').fileName,
          wallet: entry(bundle, 'crypto-checkout-wallet').fileName,
          qr: entry(bundle, 'crypto-checkout-qr').fileName,
          messages: {
            en: entry(bundle, 'crypto-checkout-en').fileName,
            es: entry(bundle, 'crypto-checkout-es').fileName,
            pt: entry(bundle, 'crypto-checkout-pt').fileName,
          },
        };
        emit('crypto-checkout.js', `export*from${JSON.stringify(`./${manifest.module}`)};\n`);
      } else if (build === 'refunds') {
        const refunds = {
          claim: entry(bundle, 'refund-claim').fileName,
          pay: entry(bundle, 'refund-pay').fileName,
        };
        manifest = { ...readManifest(distDir), refunds };
      } else {
        const classic = Object.values(bundle).find((c): c is OutputChunk => c.type === 'chunk' && c.isEntry);
        if (!classic) throw new Error('the classic build has no entry');
        manifest = { ...readManifest(distDir), classic: classic.fileName };
        emit('crypto-checkout.iife.js', classicLoader(classic.fileName));
      }
      emit(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    },
    writeBundle(options, bundle) {
      const dir = options.dir ?? distDir;
      for (const fileName of Object.keys(bundle)) {
        if (fileName.endsWith('.js')) precompress(join(dir, fileName));
      }
    },
  };
}

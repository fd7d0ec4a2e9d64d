/** Vite keeps whitespace in ES library output; this pass minifies its chunks as a classic script is. */
import { minify } from 'rolldown/utils';
import type { Plugin } from 'vite';

/** The pass, on the ES output only (a build with other formats keeps their own minification). */
export function minifyEsOutput(): Plugin {
  return {
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
}

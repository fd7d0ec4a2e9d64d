/** The baseline: a trivial Lit element built with Vite into a classic script. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';

/** Tag name of the baseline element. */
export const trivialTag = 'trivial-checkout';

/** Where the baseline was built and the file name of its classic script. */
export interface TrivialBuild {
  dir: string;
  script: string;
}

/** Builds the trivial element into a fresh temporary directory; `lit` resolves from `root`'s node_modules. */
export async function buildTrivialElement(root: string): Promise<TrivialBuild> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-widget-trivial-'));
  const lit = createRequire(join(root, 'package.json')).resolve('lit');
  const source = `import { LitElement, css, html } from ${JSON.stringify(lit)};
class TrivialCheckout extends LitElement {
  static properties = { slug: {}, apiBase: { attribute: 'api-base' } };
  static styles = css\`:host { display: block; font: 14px system-ui, sans-serif; }\`;
  render() { return html\`<p part="message">Checkout \${this.slug}</p>\`; }
}
customElements.define(${JSON.stringify(trivialTag)}, TrivialCheckout);
`;
  writeFileSync(join(dir, 'trivial.js'), source);
  await build({
    configFile: false,
    root: dir,
    logLevel: 'warn',
    mode: 'production',
    build: {
      outDir: join(dir, 'dist'),
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      lib: {
        entry: join(dir, 'trivial.js'),
        name: 'TrivialCheckout',
        formats: ['iife'],
        fileName: () => 'trivial.iife.js',
      },
    },
  });
  return { dir: join(dir, 'dist'), script: 'trivial.iife.js' };
}

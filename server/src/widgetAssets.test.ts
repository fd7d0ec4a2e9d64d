import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWidgetAssets } from './widgetAssets.ts';

let dist: string;
// Compressible like a real bundle: the same texts over and over.
const script = Buffer.from(`customElements.define("x-el",class extends HTMLElement{});\n`.repeat(200));
const loader = Buffer.from(
  '(function(){var e=document.createElement("script");e.src="chunks/main-AbC123.js";document.head.appendChild(e)})();\n',
);

function writeBuilt(name: string, bytes: Buffer, precompressed = true): void {
  writeFileSync(join(dist, name), bytes);
  if (precompressed) {
    writeFileSync(join(dist, `${name}.br`), brotliCompressSync(bytes));
    writeFileSync(join(dist, `${name}.gz`), gzipSync(bytes));
  }
}

beforeEach(() => {
  dist = mkdtempSync(join(tmpdir(), 'widget-dist-'));
  mkdirSync(join(dist, 'chunks'));
  writeBuilt('chunks/main-AbC123.js', script);
  writeBuilt('crypto-checkout.iife.js', loader);
  writeFileSync(join(dist, 'widget-manifest.json'), JSON.stringify({ classic: 'chunks/main-AbC123.js' }));
});
afterEach(() => {
  rmSync(dist, { recursive: true, force: true });
});

describe('widget assets', () => {
  it('sends the precompressed brotli form to a browser that accepts it, and gzip or identity otherwise', async () => {
    const assets = createWidgetAssets(dist);
    const br = await assets.reply('chunks/main-AbC123.js', { acceptEncoding: 'gzip, deflate, br, zstd' });
    expect(br?.headers['Content-Encoding']).toBe('br');
    expect(brotliDecompressSync(br!.body!)).toEqual(script);
    expect(br!.body!.length).toBeLessThan(script.length / 10);

    const gz = await assets.reply('chunks/main-AbC123.js', { acceptEncoding: 'gzip' });
    expect(gz?.headers['Content-Encoding']).toBe('gzip');
    expect(gunzipSync(gz!.body!)).toEqual(script);

    const plain = await assets.reply('chunks/main-AbC123.js', {});
    expect(plain?.headers['Content-Encoding']).toBeUndefined();
    expect(plain?.body).toEqual(script);
    for (const reply of [br, gz, plain]) expect(reply?.headers.Vary).toBe('Accept-Encoding');
  });

  it('caches hashed chunks for a year as immutable and the loader briefly', async () => {
    const assets = createWidgetAssets(dist);
    const chunk = await assets.reply('chunks/main-AbC123.js', { acceptEncoding: 'br' });
    expect(chunk?.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
    const stable = await assets.reply('crypto-checkout.iife.js', { acceptEncoding: 'br' });
    expect(stable?.headers['Cache-Control']).toBe('public, max-age=300');
    expect(stable?.headers['Cache-Control']).toMatch(/^public, max-age=\d{1,3}$/);
    expect(stable?.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
  });

  it('answers 304 to the ETag of the form it would send, and 200 after a new build', async () => {
    const assets = createWidgetAssets(dist);
    const first = await assets.reply('crypto-checkout.iife.js', { acceptEncoding: 'br' });
    const etag = first!.headers.ETag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}-br"$/);
    const again = await assets.reply('crypto-checkout.iife.js', { acceptEncoding: 'br', ifNoneMatch: etag });
    expect(again?.status).toBe(304);
    expect(again?.body).toBeUndefined();
    expect(again?.headers.ETag).toBe(etag);
    expect(again?.headers.Vary).toBe('Accept-Encoding');
    expect(
      (await assets.reply('crypto-checkout.iife.js', { acceptEncoding: 'br', ifNoneMatch: `W/${etag}, "x"` }))
        ?.status,
    ).toBe(304);
    // The gzip form is another representation with its own validator.
    const gz = await assets.reply('crypto-checkout.iife.js', { acceptEncoding: 'gzip', ifNoneMatch: etag });
    expect(gz?.status).toBe(200);
    expect(gz?.headers.ETag).not.toBe(etag);

    const rebuilt = Buffer.from(`${loader.toString()}// next build\n`);
    writeBuilt('crypto-checkout.iife.js', rebuilt);
    const later = new Date(Date.now() + 5_000);
    for (const f of ['', '.br', '.gz']) utimesSync(join(dist, `crypto-checkout.iife.js${f}`), later, later);
    const changed = await assets.reply('crypto-checkout.iife.js', {
      acceptEncoding: 'br',
      ifNoneMatch: etag,
    });
    expect(changed?.status).toBe(200);
    expect(brotliDecompressSync(changed!.body!)).toEqual(rebuilt);
  });

  it('compresses on the fly when the build wrote no compressed forms', async () => {
    writeBuilt('chunks/plain-Zz9.js', script, false);
    const assets = createWidgetAssets(dist);
    const br = await assets.reply('chunks/plain-Zz9.js', { acceptEncoding: 'br;q=1, gzip;q=0.9' });
    expect(br?.headers['Content-Encoding']).toBe('br');
    expect(brotliDecompressSync(br!.body!)).toEqual(script);
    const gz = await assets.reply('chunks/plain-Zz9.js', { acceptEncoding: 'gzip' });
    expect(gunzipSync(gz!.body!)).toEqual(script);
  });

  it('ignores compressed forms older than the file they belong to', async () => {
    const stale = Buffer.from(`${script.toString()}// stale\n`);
    writeFileSync(join(dist, 'chunks/new-Qq1.js.br'), brotliCompressSync(stale));
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(dist, 'chunks/new-Qq1.js.br'), earlier, earlier);
    writeFileSync(join(dist, 'chunks/new-Qq1.js'), script);
    const reply = await createWidgetAssets(dist).reply('chunks/new-Qq1.js', { acceptEncoding: 'br' });
    expect(brotliDecompressSync(reply!.body!)).toEqual(script);
  });

  it('serves only built scripts inside the dist folder', async () => {
    writeFileSync(join(dist, 'widget-manifest.json.js'), 'x');
    const assets = createWidgetAssets(dist);
    for (const name of [
      '../package.json',
      'chunks/../../x.js',
      '.hidden.js',
      'crypto-checkout.iife.js.br',
      'widget-manifest.json',
      'missing.js',
      'chunks',
    ]) {
      expect(await assets.reply(name, { acceptEncoding: 'br' }), name).toBeUndefined();
    }
  });

  it('names the hashed classic script for the service pages, and the loader without a manifest', async () => {
    expect(await createWidgetAssets(dist).classicScriptPath()).toBe('/widget/chunks/main-AbC123.js');
    rmSync(join(dist, 'widget-manifest.json'));
    expect(await createWidgetAssets(dist).classicScriptPath()).toBe('/widget/crypto-checkout.iife.js');
    expect(await createWidgetAssets(join(dist, 'nothing')).classicScriptPath()).toBe(
      '/widget/crypto-checkout.iife.js',
    );
  });
});

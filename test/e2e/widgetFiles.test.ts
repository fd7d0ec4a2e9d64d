/// <reference lib="dom" />
/**
 * The built element as the service serves it: loaders at the public names, content-hashed scripts,
 * brotli/gzip by `Accept-Encoding`, validators and caching; and a merchant page whose classic `<script>`
 * tag names the loader gets the element and, on demand, the hashed wallet module.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { browserUnavailable, launchBrowser, type TestBrowser } from './support/browser.ts';
import { type MerchantSite, startMerchantSite } from './support/merchantSite.ts';

const dist = fileURLToPath(new URL('../../widget/dist/', import.meta.url));

/** One raw GET: status, headers and the bytes as they crossed the wire (not decompressed). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('widget files', () => {
  let service: TestService;
  let site: MerchantSite;
  let browser: TestBrowser;
  const manifest = JSON.parse(readFileSync(`${dist}widget-manifest.json`, 'utf8')) as {
    classic: string;
    module: string;
    wallet: string;
  };

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    site = await startMerchantSite();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await service?.stop();
  });

  it('keeps the public names as small loaders of content-hashed entries', async () => {
    for (const file of [manifest.classic, manifest.module, manifest.wallet]) {
      expect(file).toMatch(/^chunks\/[\w.-]+-[A-Za-z0-9_-]{8}\.js$/);
    }
    const classic = await get(`${service.url}/widget/crypto-checkout.iife.js`);
    expect(classic.status).toBe(200);
    expect(classic.body.length).toBeLessThan(1_000);
    expect(classic.body.toString()).toContain(JSON.stringify(manifest.classic));
    const module = await get(`${service.url}/widget/crypto-checkout.js`);
    expect(module.body.toString()).toBe(`export*from"./${manifest.module}";\n`);
    expect(readFileSync(`${dist}${manifest.classic}`, 'utf8')).toContain(
      manifest.wallet.slice('chunks/'.length),
    );
  });

  it('sends brotli, gzip or identity by Accept-Encoding, with Vary and one ETag per form', async () => {
    const url = `${service.url}/widget/${manifest.classic}`;
    const raw = readFileSync(`${dist}${manifest.classic}`);
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    const gz = await get(url, { 'accept-encoding': 'gzip, deflate' });
    const plain = await get(url);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(raw);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body)).toEqual(raw);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(raw);
    expect(br.body.length).toBeLessThan(gz.body.length);
    expect(gz.body.length).toBeLessThan(raw.length / 2);
    for (const reply of [br, gz, plain]) {
      expect(reply.headers.vary).toBe('Accept-Encoding');
      expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(reply.headers['access-control-allow-origin']).toBe('*');
      expect(reply.headers['content-length']).toBe(String(reply.body.length));
    }
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
  });

  it('revalidates the loader: short max-age, 304 on If-None-Match', async () => {
    const url = `${service.url}/widget/crypto-checkout.iife.js`;
    const first = await get(url, { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    const etag = String(first.headers.etag);
    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await get(url, { 'accept-encoding': 'br', 'if-none-match': '"older-build"' })).status).toBe(200);
    expect((await get(`${service.url}/widget/crypto-checkout.iife.js.br`)).status).toBe(404);
    expect((await get(`${service.url}/widget/widget-manifest.json`)).status).toBe(404);
  });

  it('gives a merchant page with the classic loader tag the element and the hashed wallet module', async () => {
    const page = await browser.context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
    });
    try {
      await page.goto(
        site.page(
          '/shop.html',
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${service.url}/widget/crypto-checkout.iife.js"></script></head>
<body><main><crypto-checkout slug="none" api-base="${service.url}"></crypto-checkout></main></body></html>`,
        ),
      );
      await page.waitForFunction(() => customElements.get('crypto-checkout') !== undefined);
      expect(scripts.slice(0, 2)).toEqual(['/widget/crypto-checkout.iife.js', `/widget/${manifest.classic}`]);
      // The wallet module, imported across origins as the element imports it (CORS).
      const walletUrl = `${service.url}/widget/${manifest.wallet}`;
      // A string, so the test runner's transform leaves the dynamic import alone.
      expect(await page.evaluate(`import(${JSON.stringify(walletUrl)}).then(() => true)`)).toBe(true);
      expect(scripts).toContain(`/widget/${manifest.wallet}`);
    } finally {
      await page.close();
    }
  });

  it('names the hashed classic script on the hosted page', async () => {
    const res = await fetch(`${service.url}/checkout/unknown-slug`);
    expect(await res.text()).toContain(`<script src="/widget/${manifest.classic}"></script>`);
  });
});

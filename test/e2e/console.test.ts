/// <reference lib="dom" />
/**
 * The merchant console as the service serves it: one HTML shell at every path under /console with a strict
 * Content-Security-Policy, content-hashed scripts compressed and cached as immutable, a first load within
 * 60 KB on the wire; the sign-in page at 320 px in light and dark with axe finding nothing, and nothing the
 * policy refuses.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLoadBytes } from '../../console/build/size.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { axeViolations, browserUnavailable, launchBrowser, type TestBrowser } from './support/browser.ts';
import { artifacts } from './support/checkoutHarness.ts';

const dist = fileURLToPath(new URL('../../console/dist/', import.meta.url));
const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** The policy's refusals a page reports, gathered from the moment it opens. */
function refusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

/** axe's violations: its script is evaluated by the test (the page's policy refuses inline scripts, rightly). */
async function violations(page: Page) {
  await page.evaluate(axeSource);
  return axeViolations(page);
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('merchant console', () => {
  let service: TestService;
  let browser: TestBrowser;
  const manifest = JSON.parse(readFileSync(`${dist}console-manifest.json`, 'utf8')) as {
    entry: string;
    imports: string[];
  };

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('answers one shell at every path under /console, with a strict policy', async () => {
    for (const path of ['/console', '/console/', '/console/payments', '/console/payment/abc']) {
      const res = await service.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.text).toContain(`<script type="module" src="/console/${manifest.entry}"></script>`);
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).not.toContain('unsafe-eval');
    }
  });

  it('serves its scripts compressed, content-hashed and immutable, the first load within 60 KB', async () => {
    const res = await fetch(`${service.url}/console/${manifest.entry}`, {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${service.url}/console/chunks/missing-0000.js`)).status).toBe(404);
    const sizes = firstLoadBytes();
    console.log('console first load (bytes on the wire):', JSON.stringify(sizes));
    for (const [view, bytes] of Object.entries(sizes)) {
      expect(bytes.br, view).toBeLessThanOrEqual(60 * 1024);
      expect(bytes.gzip, view).toBeLessThanOrEqual(60 * 1024);
    }
  });

  it('shows the sign-in page at 320 px, in light and dark, accessible and within its policy', async () => {
    const page = await browser.context.newPage();
    const refused = refusals(page);
    try {
      await page.setViewportSize({ width: 320, height: 700 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto(`${service.url}/console/payments`);
        const button = page.getByRole('button', { name: 'Sign in with wallet' });
        await button.waitFor();
        expect(await violations(page)).toEqual([]);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
        await page.screenshot({ path: `${artifacts}console-sign-in-${colorScheme}.png` });
      }
      // With no wallet in the browser, signing in says what to do.
      await page.getByRole('button', { name: 'Sign in with wallet' }).click();
      await page.getByRole('alert').filter({ hasText: 'No wallet found' }).waitFor();
      // Spanish, chosen on the page, is fetched and kept.
      await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
      await page.getByRole('button', { name: 'Iniciar sesión con la billetera' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      expect(await violations(page)).toEqual([]);
      expect(refused).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

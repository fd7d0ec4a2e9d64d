/** Headless Chromium runs: navigation to first render, and the files the wallet module loads. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Path of the system Chromium (`CHROMIUM_PATH` overrides). */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A headless browser on a throw-away profile. */
export interface BenchBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium with the flags of the end-to-end suite. */
export async function launchBenchBrowser(): Promise<BenchBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-widget-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 420, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  let closed = false;
  return {
    context,
    async close() {
      if (closed) return;
      closed = true;
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Milliseconds from navigation start of one page load. */
export interface RenderTiming {
  /** The element's `firstUpdated`. */
  firstRender: number;
  /** First update after the checkout view arrived (same as `firstRender` for the baseline). */
  ready: number;
  /** End of the first script's response. */
  scriptLoaded: number;
  /** First contentful paint, when reported. */
  fcp: number | null;
}

// Wraps customElements.define so the tag's first render and first non-loading update are timed.
function hookScript(tag: string): string {
  return `(() => {
  const bench = (window.__bench = { firstRender: null, ready: null });
  const define = customElements.define.bind(customElements);
  customElements.define = function (name, ctor, options) {
    if (name === ${JSON.stringify(tag)}) {
      const proto = ctor.prototype;
      const firstUpdated = proto.firstUpdated;
      proto.firstUpdated = function (...args) {
        if (bench.firstRender === null) bench.firstRender = performance.now();
        return firstUpdated ? firstUpdated.apply(this, args) : undefined;
      };
      const updated = proto.updated;
      proto.updated = function (...args) {
        if (bench.ready === null && this.phase !== 'loading') bench.ready = performance.now();
        return updated ? updated.apply(this, args) : undefined;
      };
    }
    return define(name, ctor, options);
  };
})();`;
}

interface PageBench {
  firstRender: number | null;
  ready: number | null;
  scriptLoaded: number | null;
  fcp: number | null;
}

/** Loads `url` in a new page (cache disabled, CPU slowed `cpuRate`×) and times the element `tag`. */
export async function timeFirstRender(
  context: BrowserContext,
  url: string,
  tag: string,
  scriptPath: string,
  cpuRate: number,
): Promise<RenderTiming> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    await page.addInitScript({ content: hookScript(tag) });
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForFunction('window.__bench && window.__bench.ready !== null', null, { timeout: 30_000 });
    // FCP is reported a frame after the paint.
    await page
      .waitForFunction("performance.getEntriesByName('first-contentful-paint').length > 0", null, {
        timeout: 2_000,
      })
      .catch(() => {});
    const result = (await page.evaluate(`(() => {
      const script = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === ${JSON.stringify(scriptPath)});
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        firstRender: window.__bench.firstRender,
        ready: window.__bench.ready,
        scriptLoaded: script ? script.responseEnd : null,
        fcp: fcp ? fcp.startTime : null,
      };
    })()`)) as PageBench;
    if (result.firstRender === null || result.ready === null || result.scriptLoaded === null)
      throw new Error(`incomplete timing for ${url}: ${JSON.stringify(result)}`);
    if (errors.length > 0) throw new Error(`page errors on ${url}: ${errors.join('; ')}`);
    return {
      firstRender: result.firstRender,
      ready: result.ready,
      scriptLoaded: result.scriptLoaded,
      fcp: result.fcp,
    };
  } finally {
    await page.close();
  }
}

/** Paths of the JavaScript files Chromium requests while loading the page at `url` (which imports the wallet module). */
export async function recordWalletRequests(context: BrowserContext, url: string): Promise<string[]> {
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('.js')) scripts.push(path);
  });
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForFunction('window.__walletLoaded !== undefined', null, { timeout: 30_000 });
    const loaded = await page.evaluate('window.__walletLoaded');
    if (loaded !== true) throw new Error(`wallet module failed to load: ${String(loaded)}`);
    return scripts;
  } finally {
    await page.close();
  }
}

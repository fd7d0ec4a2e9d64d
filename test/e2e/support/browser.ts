/// <reference lib="dom" />
/** Debian's Chromium driven by playwright-core, with a fresh profile per launch. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Path of the system Chromium the suite drives (`apt-get install chromium`). */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * True when no Chromium is installed outside CI: the browser suite is then skipped with a warning
 * (`apt-get install chromium` enables it); under CI (`CI=true`) it always runs, so a missing browser fails.
 */
export function browserUnavailable(): boolean {
  if (process.env.CI || existsSync(chromiumPath)) return false;
  console.warn(
    `${chromiumPath} not found: the browser suite is skipped (apt-get install chromium, or set CHROMIUM_PATH).`,
  );
  return true;
}

/** A headless browser context and the cleanup of its profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium on a throw-away profile. Playwright turns the back-forward cache off;
 * `backForwardCache` keeps it, as in a shopper's browser, for what a page does when it is restored.
 */
export async function launchBrowser(options: { backForwardCache?: boolean } = {}): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'checkout-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
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
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe violation, reduced to what a failing assertion needs to say. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  targets: string[];
}

/** Runs axe (WCAG 2.1 A/AA and best practices) on the page, shadow roots included. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{
            violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
}

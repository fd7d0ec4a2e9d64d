/// <reference lib="dom" />
/**
 * Everything a browser flow of `<crypto-checkout>` needs for one test file: a local chain, the real
 * service (with Temporal), a webhook receiver, a merchant web site on another origin and Chromium, plus
 * helpers to open a page with a test wallet, follow the element's outcome events and check accessibility.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { type Address, erc20Abi, type Hex, parseUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { expect } from 'vitest';
import { startTestChain, type TestChain } from '../../support/chain.ts';
import { startTestService, type TestMerchant, type TestService } from '../../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.ts';
import { axeViolations, launchBrowser, type TestBrowser } from './browser.ts';
import { type MerchantSite, startMerchantSite } from './merchantSite.ts';
import { installTestWallet, type TestWallet, type TestWalletOptions } from './testWallet.ts';

/** Where screenshots go (`test/e2e/artifacts/`, kept by CI). */
export const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** One `checkout-success` or `checkout-failure` as a listener on `document` saw it. */
interface Outcome {
  type: 'checkout-success' | 'checkout-failure';
  detail: Record<string, string | null>;
  bubbles: boolean;
  composed: boolean;
  cancelable: boolean;
  /** The page's URL when the event arrived. */
  url: string;
}

/** How a page is opened. */
interface OpenOptions {
  /** Wallet settings beyond the shopper's key and the dev chain (network, discovery). */
  wallet?: Partial<Omit<TestWalletOptions, 'privateKey' | 'rpcUrl'>>;
  /** Cancel the outcome events (default true): the page stays on the final state instead of redirecting. */
  cancelOutcome?: boolean;
  /** Extra request headers, e.g. `Accept-Language`. */
  headers?: Record<string, string>;
  /** Run before the page is loaded (media emulation, viewport). */
  before?: (page: Page) => Promise<void>;
}

/** An opened page: its wallet and the outcome events seen so far. */
interface CheckoutPage {
  page: Page;
  wallet: TestWallet;
  outcomes: Outcome[];
  /** Uncaught page errors and console errors, for failure messages. */
  errors: string[];
}

export interface CheckoutHarness {
  chain: TestChain;
  service: TestService;
  receiver: WebhookReceiver;
  merchant: TestMerchant;
  browser: TestBrowser;
  site: MerchantSite;
  /** The product token of every flow: the dev chain's test BUSD. */
  busd: Address;
  createProduct(overrides?: Record<string, unknown>): Promise<{ id: string; slug: string }>;
  expectPayment(productId: string, dollarAmount: string): Promise<{ id: string }>;
  /** A new shopper account with `busd` whole BUSD (none when 0) and 1 BNB for fees unless `fees` is false. */
  freshShopper(busd?: string, options?: { fees?: boolean }): Promise<Hex>;
  /** Gives `address` `amount` whole BNB (the dev chain's own coin). */
  setNativeBalance(address: string, amount: bigint): Promise<void>;
  /** BUSD base units `address` holds. */
  busdBalance(address: string): Promise<bigint>;
  /**
   * Opens `path` (on the service unless it is an absolute URL) with a wallet for `shopper` (a dev shopper
   * index or a private key) and waits for the element's heading.
   */
  openPage(shopper: number | Hex, path: string, options?: OpenOptions): Promise<CheckoutPage>;
  /** The first outcome event of `page` (waits up to 45 s). */
  outcome(page: Page): Promise<Outcome>;
  expectAccessible(page: Page, state: string): Promise<void>;
  fillShopper(page: Page, fields?: Record<string, string>): Promise<void>;
  /** The one webhook about `paymentId` (waits up to 30 s, then fails on none or several). */
  expectWebhookFor(paymentId: string): Promise<{ id: string; payment: { tx_id: string; swapped: boolean } }>;
  /**
   * The success every paying flow ends with: a `checkout-success` outcome, exactly one transaction sent
   * by `wallet`, and exactly one webhook for the payment at the merchant's receiver.
   */
  expectPaidOnce(page: Page, wallet: Pick<TestWallet, 'sent'>): Promise<Outcome>;
  /** The text of the element's shadow root, whitespace collapsed. */
  elementText(page: Page): Promise<string>;
  stop(): Promise<void>;
}

const outcomesOf = new WeakMap<Page, Outcome[]>();
const errorsOf = new WeakMap<Page, string[]>();

/** Starts the chain, service, receiver, merchant site and browser. */
export async function startCheckoutHarness(
  options: { env?: Record<string, string> } = {},
): Promise<CheckoutHarness> {
  mkdirSync(artifacts, { recursive: true });
  const [chain, receiver, browser, site] = await Promise.all([
    startTestChain(),
    startWebhookReceiver(),
    launchBrowser(),
    startMerchantSite(),
  ]);
  const busd = chain.deployment.tokens.BUSD.address;
  const service = await startTestService({
    env: {
      RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
      PUBLIC_RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
      CHAIN_POLL_INTERVAL_MS: '100',
      ...options.env,
    },
  });
  const merchant = await service.createMerchant();

  const harness: CheckoutHarness = {
    chain,
    service,
    receiver,
    merchant,
    browser,
    site,
    busd,

    async createProduct(overrides = {}) {
      const res = await service.request('POST', '/api/v1/products', {
        headers: merchant.headers,
        json: {
          product: {
            name: 'Espresso beans',
            email: 'merchant@example.com',
            active: true,
            send_webhook: true,
            webhook_url: receiver.url,
            send_email: false,
            custom_fields: ['full_name'],
            tax_rate: 20,
            expires_in_minutes: 30,
            success_url: 'https://shop.example/thanks',
            failure_url: 'https://shop.example/sorry',
            token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
            ...overrides,
          },
        },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.product as { id: string; slug: string };
    },

    async expectPayment(productId, dollarAmount) {
      const res = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
        headers: merchant.headers,
        json: { dollar_amount: dollarAmount },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.expected_payment as { id: string };
    },

    async setNativeBalance(address, amount) {
      await chain.publicClient.request({
        method: 'hardhat_setBalance' as 'eth_chainId',
        params: [address, `0x${(amount * 10n ** 18n).toString(16)}`] as unknown as undefined,
      });
    },

    async freshShopper(amount = '0', options = {}) {
      const key = `0x${randomBytes(32).toString('hex')}` as Hex;
      const address = privateKeyToAddress(key);
      if (options.fees !== false) await harness.setNativeBalance(address, 1n);
      const units = parseUnits(amount, chain.deployment.tokens.BUSD.decimals);
      if (units > 0n) await chain.transfer(0, busd, address, units);
      return key;
    },

    busdBalance: (address) =>
      chain.publicClient.readContract({
        address: busd,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address as Address],
      }),

    async openPage(shopper, path, open = {}) {
      const page = await browser.context.newPage();
      const outcomes: Outcome[] = [];
      const errors: string[] = [];
      outcomesOf.set(page, outcomes);
      errorsOf.set(page, errors);
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      const privateKey =
        typeof shopper === 'number' ? (chain.deployment.shoppers[shopper]!.privateKey as Hex) : shopper;
      const wallet = await installTestWallet(page, {
        chainId: 97,
        ...open.wallet,
        privateKey,
        rpcUrl: chain.chain.rpcUrl,
      });
      await page.exposeFunction('__checkoutOutcome', (json: string) => {
        outcomes.push(JSON.parse(json) as Outcome);
      });
      await page.addInitScript(
        ({ cancel }) => {
          const w = window as unknown as {
            __checkoutOutcome(json: string): void;
            __firstRender?: number;
            __viewRender?: number;
          };
          for (const type of ['checkout-success', 'checkout-failure']) {
            // Cancelled by default: the test keeps the final state on screen instead of following the redirect.
            document.addEventListener(type, (event) => {
              if (cancel) event.preventDefault();
              w.__checkoutOutcome(
                JSON.stringify({
                  type,
                  detail: (event as CustomEvent).detail,
                  bubbles: event.bubbles,
                  composed: event.composed,
                  cancelable: event.cancelable,
                  url: window.location.href,
                }),
              );
            });
          }
          let frames = 0;
          const watch = () => {
            const root = document.querySelector('crypto-checkout')?.shadowRoot;
            if (w.__firstRender === undefined && root?.querySelector('[part="base"]'))
              w.__firstRender = performance.now();
            if (w.__viewRender === undefined && root?.querySelector('h2')) w.__viewRender = performance.now();
            if (w.__viewRender === undefined && frames++ < 2_000) requestAnimationFrame(watch);
          };
          requestAnimationFrame(watch);
        },
        { cancel: open.cancelOutcome ?? true },
      );
      if (open.headers) await page.setExtraHTTPHeaders(open.headers);
      await open.before?.(page);
      await page.goto(/^https?:\/\//.test(path) ? path : `${service.url}${path}`);
      await page.getByRole('heading', { level: 2 }).waitFor({ timeout: 15_000 });
      return { page, wallet, outcomes, errors };
    },

    async outcome(page) {
      const outcomes = outcomesOf.get(page);
      if (!outcomes) throw new Error('page was not opened by the harness');
      const deadline = Date.now() + 45_000;
      while (outcomes.length === 0) {
        if (Date.now() > deadline) {
          const text = await harness.elementText(page).catch(() => '(page gone)');
          await page.screenshot({ path: `${artifacts}no-outcome-${Date.now()}.png` }).catch(() => {});
          const errors = errorsOf.get(page)?.join('\n') || 'none';
          throw new Error(`no outcome event within 45 s; element says: ${text}\npage errors: ${errors}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return outcomes[0]!;
    },

    async expectAccessible(page, state) {
      const violations = await axeViolations(page);
      expect(violations, `axe violations in state "${state}"`).toEqual([]);
    },

    async fillShopper(page, fields = { 'Full name': 'Ada Lovelace' }) {
      await page.getByLabel('E-mail').fill('shopper@example.com');
      for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
    },

    async expectWebhookFor(paymentId) {
      const deadline = Date.now() + 30_000;
      while (!receiver.received.some((r) => r.body.includes(paymentId))) {
        if (Date.now() > deadline) throw new Error(`no webhook for ${paymentId}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const hook = receiver.received.filter((r) => r.body.includes(paymentId));
      expect(hook).toHaveLength(1);
      return JSON.parse(hook[0]!.body) as { id: string; payment: { tx_id: string; swapped: boolean } };
    },

    async expectPaidOnce(page, wallet) {
      const result = await harness.outcome(page);
      expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
      expect(wallet.sent).toHaveLength(1);
      await harness.expectWebhookFor(result.detail.resolvedPaymentId!);
      return result;
    },

    async elementText(page) {
      const text = await page.evaluate(() => {
        const find = (root: Document | ShadowRoot): Element | null => {
          const direct = root.querySelector('crypto-checkout');
          if (direct) return direct;
          for (const el of Array.from(root.querySelectorAll('*'))) {
            const found = el.shadowRoot ? find(el.shadowRoot) : null;
            if (found) return found;
          }
          return null;
        };
        return find(document)?.shadowRoot?.textContent ?? '';
      });
      return text.replace(/\s+/g, ' ').trim();
    },

    async stop() {
      await browser?.close();
      await service?.stop();
      await Promise.all([chain?.stop(), receiver?.close(), site?.close()]);
    },
  };
  return harness;
}

/// <reference lib="dom" />
/**
 * A merchant signs in to the console with the receiving wallet (the project's injected test wallet signs
 * the EIP-4361 message), finds a payment by its transaction hash, opens its page, and exports the payments
 * as CSV whose rows are the payments, makes a product and copies its snippet, rotates the webhook secret, makes
 * a read-only key and reads the audit log; an invited viewer reads the merchant's payments and is refused a
 * write naming its scope. Every page axe-clean and within the page's policy.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@checkout/db';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { axeViolations, browserUnavailable, launchBrowser, type TestBrowser } from './support/browser.ts';
import { artifacts } from './support/checkoutHarness.ts';
import { consoleEnv, signIn } from './support/console.ts';
import { installTestWallet } from './support/testWallet.ts';

const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const token = { symbol: 'USDC', name: 'USD Coin', decimal_count: 6, ...usdc };
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, 'c')}`;

async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  expect(await axeViolations(page)).toEqual([]);
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('merchant console, signed in', () => {
  let service: TestService;
  let browser: TestBrowser;
  const privateKey = generatePrivateKey();
  const wallet = privateKeyToAddress(privateKey);
  const ids: string[] = [];
  let ownerHeaders: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: await consoleEnv() });
    browser = await launchBrowser();
    const key = await createApiKey(service.deps.db.kysely, { address: wallet });
    const headers = { authorization: `Bearer ${key.key}`, 'x-address': key.address };
    ownerHeaders = headers;
    const product = await service.request('POST', '/api/v1/products', {
      headers,
      json: { product: { name: 'Tea', email: 'owner@example.com', token: usdc } },
    });
    for (let n = 1; n <= 3; n++) {
      const id = crypto.randomUUID();
      ids.push(id);
      await service.deps.db.kysely
        .insertInto('resolved_payments')
        .values({
          id,
          product_id: product.body.product.id,
          expected_payment_id: crypto.randomUUID(),
          is_test: false,
          dollar_amount: `${n}0.00`,
          metadata: JSON.stringify(null),
          user_email: `shopper${n}@example.com`,
          custom_fields: JSON.stringify({}),
          chain_id: 1,
          expected_token: JSON.stringify(token),
          received_token: JSON.stringify(token),
          expected_token_amount: `${n}0000000`,
          received_token_amount: `${n}0000000`,
          amount_difference: '0',
          receiving_address: key.address,
          sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          tx_id: hashOf(n),
          log_index: 0,
          tx_success: true,
          tx_failure: false,
          swapped: false,
          late: false,
          created_at: new Date(Date.now() - (4 - n) * 60_000),
        })
        .execute();
    }
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('signs in with the wallet, finds a payment by its hash and exports the payments as CSV', async () => {
    const page = await browser.context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    try {
      await page.setViewportSize({ width: 1024, height: 800 });
      const testWallet = await installTestWallet(page, {
        privateKey,
        rpcUrl: 'http://127.0.0.1:9',
        chainId: 1,
        // Announced through EIP-6963 only, as the newer wallets do.
      });
      await page.goto(`${service.url}/console`);
      await signIn(page, wallet);
      expect(testWallet.calls).toContain('personal_sign');
      const signed = testWallet.requests.find((r) => r.method === 'personal_sign');
      const message = Buffer.from(String(signed?.params[0]).slice(2), 'hex').toString('utf8');
      expect(message).toContain(
        `${new URL(service.url).host} wants you to sign in with your Ethereum account:`,
      );
      await expectAccessible(page);

      await page.getByRole('navigation').getByRole('link', { name: 'Payments' }).click();
      await page.getByRole('searchbox', { name: 'Search' }).fill(hashOf(2));
      await page.getByRole('button', { name: 'Apply' }).click();
      const rows = page.locator('console-payments tbody tr');
      await rows.filter({ hasText: 'shopper2@example.com' }).waitFor();
      expect(await rows.count()).toBe(1);
      await expectAccessible(page);
      await page.screenshot({ path: `${artifacts}console-payments.png` });

      await rows.getByRole('link').click();
      await page.getByRole('heading', { name: 'Payment 20 USDC' }).waitFor();
      expect(page.url()).toBe(`${service.url}/console/payment/${ids[1]}`);
      await expectAccessible(page);

      await page.getByRole('link', { name: 'Back to payments' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('payments.csv');
      const csv = readFileSync(await download.path(), 'utf8')
        .trimEnd()
        .split('\r\n');
      expect(csv[0]).toBe(
        'id,created_at,product,email,dollar_amount,amount,token,chain,chain_id,tx_hash,sender,exception,refunded,test',
      );
      expect(csv.slice(1).map((line) => [line.split(',')[0], line.split(',')[9]])).toEqual(
        [2, 1, 0].map((i) => [ids[i], hashOf(i + 1)]),
      );

      // A product made in the console, its embed snippet copied as the merchant's page needs it.
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
      await page.getByRole('navigation').getByRole('link', { name: 'Products' }).click();
      const form = page.getByRole('form', { name: 'Create' });
      await form.getByLabel('Name').fill('Green tea');
      await form.getByLabel('E-mail').fill('owner@example.com');
      await form.getByLabel('Token contract address').fill(usdc.address);
      await form.getByRole('button', { name: 'Create' }).click();
      const card = page.locator('console-products li').filter({ hasText: 'Green tea' });
      await card.waitFor();
      await card.getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
      const snippet = await page.evaluate(() => navigator.clipboard.readText());
      expect(snippet).toMatch(
        new RegExp(
          `^<script src="${service.url}/widget/crypto-checkout.iife.js" defer></script>\\n<crypto-checkout slug="[\\w-]+"></crypto-checkout>$`,
        ),
      );
      await expectAccessible(page);

      // The webhook secret shown, then rotated: another one.
      await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'Show' }).click();
      const secret = page.locator('console-webhooks code').filter({ hasText: /^whsec_/ });
      const first = (await secret.textContent()) ?? '';
      await page.getByRole('button', { name: 'Rotate' }).click();
      await secret.filter({ hasNotText: first }).waitFor();
      await expectAccessible(page);

      // The inbox, empty: nothing waits.
      await page.getByRole('navigation').getByRole('link', { name: 'Unmatched transfers' }).click();
      await page.locator('console-inbox').getByText('Nothing here yet.').waitFor();
      await expectAccessible(page);

      // A read-only key made in the console; the audit log names the wallet that made it and rotated the secret.
      await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
      const keyForm = page.getByRole('form', { name: 'Create' });
      await keyForm.getByLabel('Name').fill('Reports');
      await keyForm.getByLabel('payments:read').check();
      await keyForm.getByRole('button', { name: 'Create' }).click();
      const shown = page.getByRole('status').filter({ hasText: 'The new key, shown this once' });
      const newKey = (await shown.locator('code').textContent()) ?? '';
      expect(newKey).toMatch(/^ck_/);
      const readOnly = await service.request('GET', '/api/v1/resolved_payments', {
        headers: { authorization: `Bearer ${newKey}`, 'x-address': wallet },
      });
      expect(readOnly.status).toBe(200);
      await page.locator('console-keys li').filter({ hasText: 'Reports' }).waitFor();
      await expectAccessible(page);
      await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
      const lines = page.locator('console-audit tbody tr');
      await lines.filter({ hasText: 'api_key.created' }).filter({ hasText: wallet }).waitFor();
      await lines.filter({ hasText: 'webhook_secret.rotated' }).waitFor();
      await expectAccessible(page);
      expect(refused).toEqual([]);
    } finally {
      await page.close();
    }
  });
  it("lets an invited viewer read the merchant's payments and refuses its writes, naming the scope", async () => {
    const viewerKey = generatePrivateKey();
    const viewer = privateKeyToAddress(viewerKey);
    const invited = await service.request('POST', '/api/v1/team_members', {
      headers: { authorization: ownerHeaders.authorization! },
      json: { address: viewer, role: 'viewer' },
    });
    expect(invited.status, invited.text).toBe(200);
    // The owner's session cookie from the test before stays in the browser otherwise.
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    try {
      await installTestWallet(page, { privateKey: viewerKey, rpcUrl: 'http://127.0.0.1:9', chainId: 1 });
      await page.goto(`${service.url}/console/payments`);
      await signIn(page, viewer);
      // The merchant's payments, read on its receiving wallet.
      await page.locator('console-payments tbody tr').filter({ hasText: 'shopper1@example.com' }).waitFor();
      await page.getByRole('navigation').getByRole('link', { name: 'Products' }).click();
      const card = page
        .locator('console-products li')
        .filter({ has: page.getByRole('heading', { name: 'Tea', exact: true }) });
      await card.waitFor();
      // A viewer is offered no write: the product's card has no Activate button.
      expect(await card.getByRole('button', { name: 'Activate' }).count()).toBe(0);
      await expectAccessible(page);
      // Not only hidden: the API refuses the viewer's write with its own session, naming the scope.
      const refused = await page.evaluate(async () => {
        const session = (await (await fetch('/api/v1/console/session')).json()) as { csrf_token: string };
        const res = await fetch('/api/v1/team_members', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
          body: JSON.stringify({ address: '0x000000000000000000000000000000000000dEaD', role: 'viewer' }),
        });
        return { status: res.status, text: await res.text() };
      });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('team:write');
    } finally {
      await page.close();
    }
  });
});

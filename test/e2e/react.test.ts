/// <reference lib="dom" />
/**
 * The React wrapper in a real dapp (built with Vite from `reactDapp/`): the dapp connects the wallet
 * through its own wagmi config, and `<CryptoCheckout>` pays through that config without connecting again;
 * its `onSuccess` handler keeps the shopper in the dapp.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { browserUnavailable } from './support/browser.ts';
import { artifacts, type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the dapp into `outDir` (production mode, like a dapp's own build). */
async function buildDapp(outDir: string): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, 'build', '--config', `${root}test/e2e/reactDapp/vite.config.ts`],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production', DAPP_OUT_DIR: outDir } },
  );
}

describe.skipIf(databaseUnavailable() || browserUnavailable())('React wrapper in a wagmi dapp', () => {
  let h: CheckoutHarness;
  let outDir = '';

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'checkout-dapp-'));
    [h] = await Promise.all([startCheckoutHarness(), buildDapp(outDir)]);
    h.site.scripts('/dapp/', outDir);
  });
  afterAll(async () => {
    await h?.stop();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it("pays through the dapp's wagmi connection, and the dapp's handler keeps the shopper on its page", async () => {
    const product = await h.createProduct();
    const expected = await h.expectPayment(product.id, '6.00');
    const page = h.site.page(
      '/dapp',
      `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Coffee dapp</title>
<script type="module" src="/dapp/dapp.js"></script></head>
<body><div id="root"></div></body>
</html>`,
    );
    const url = `${page}?${new URLSearchParams({
      slug: product.slug,
      expected_payment: expected.id,
      api: h.service.url,
      rpc: h.chain.chain.rpcUrl,
    })}`;
    const shopper = await h.freshShopper('10');
    const dapp = await h.openPage(shopper, url, { cancelOutcome: false });

    await dapp.page.getByRole('button', { name: 'Connect Test Wallet' }).click();
    await dapp.page.getByText(`Connected: ${dapp.wallet.address}`).waitFor();
    const connectCalls = dapp.wallet.calls.length;
    expect(dapp.wallet.calls.filter((m) => m === 'eth_requestAccounts')).toHaveLength(1);

    await h.fillShopper(dapp.page);
    await dapp.page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
    await dapp.page.getByRole('button', { name: 'Pay now' }).waitFor();
    await h.expectAccessible(dapp.page, 'react dapp: review');
    await dapp.page.screenshot({ path: `${artifacts}react-dapp-review.png`, fullPage: true });
    await dapp.page.getByRole('button', { name: 'Pay now' }).click();
    await dapp.page.getByText('Paid in the dapp: ').waitFor({ timeout: 45_000 });
    await h.expectAccessible(dapp.page, 'react dapp: paid');
    await dapp.page.screenshot({ path: `${artifacts}react-dapp-paid.png` });

    // The element used the dapp's connection: no second account request, one transaction.
    const elementCalls = dapp.wallet.calls.slice(connectCalls);
    expect(elementCalls).not.toContain('eth_requestAccounts');
    expect(elementCalls).not.toContain('wallet_requestPermissions');
    expect(dapp.wallet.sent).toHaveLength(1);
    expect(await dapp.page.getByText(`Paid in the dapp: ${dapp.wallet.sent[0]}`).count()).toBe(1);
    expect(dapp.outcomes).toMatchObject([
      { type: 'checkout-success', detail: { txHash: dapp.wallet.sent[0] } },
    ]);
    // Cancelled by the dapp's onSuccess: no redirect to success_url.
    expect(dapp.page.url()).toBe(url);
    await h.expectWebhookFor(dapp.outcomes[0]!.detail.resolvedPaymentId!);
    await dapp.page.close();
  });
});

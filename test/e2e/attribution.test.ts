/// <reference lib="dom" />
/**
 * How `<crypto-checkout>` makes a payment name its session, in Chromium against the real service, Temporal
 * and a local chain: a plain injected wallet sends the session's `transaction` as it is (the token's
 * transfer of the exact amount, then the session's reference); a wallet that loses the data suffix still
 * pays, by the exact amount the session holds; a smart account whose relayer executes the shopper's call
 * pays through the reference its call carries; and on a merchant's own origin the opener's secret goes
 * with the re-post that changes the session and with its close.
 */
import type { Page, Request } from 'playwright-core';
import { decodeFunctionData, erc20Abi, type Hex, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress } from '../support/service.ts';
import { browserUnavailable } from './support/browser.ts';
import { type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';
import type { TestWallet } from './support/testWallet.ts';

/** A session as the public API answers it, with what attributes its payment. */
interface Session {
  id: string;
  status: string;
  expected_token_amount: string;
  receiving_address: string;
  reference: Hex;
  transaction: { chain_id: number; to: string; data: Hex; value: string } | null;
  tx_hash: string | null;
}

describe.skipIf(databaseUnavailable() || browserUnavailable())(
  'what a payment carries to its session',
  () => {
    let h: CheckoutHarness;

    beforeAll(async () => {
      h = await startCheckoutHarness();
    });
    afterAll(async () => {
      await h?.stop();
    });

    const payNow = (page: Page) => page.getByRole('button', { name: 'Pay now' });
    const pick = (page: Page) => page.getByRole('button', { name: 'Pay with Test Wallet' });
    const sessionById = async (id: string) =>
      (await h.service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session as Session;
    const sessionOf = async (expectedPaymentId: string) => {
      const row = await h.service.deps.db.kysely
        .selectFrom('checkout_sessions')
        .select('id')
        .where('expected_payment_id', '=', expectedPaymentId)
        .executeTakeFirstOrThrow();
      return sessionById(row.id);
    };
    /** The transactions the page asked the wallet to send, as it asked them. */
    const asked = (wallet: TestWallet) =>
      wallet.requests
        .filter((r) => r.method === 'eth_sendTransaction')
        .map((r) => r.params[0] as { to: string; data: Hex; value?: string });
    const inputOf = async (hash: string) =>
      (await h.chain.publicClient.getTransaction({ hash: hash as Hex })).input.toLowerCase();

    it("pays with a plain injected wallet by sending the session's transaction exactly", async () => {
      const product = await h.createProduct();
      const expected = await h.expectPayment(product.id, '6.10');
      const key = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(
        key,
        `/checkout/${product.slug}?expected_payment=${expected.id}`,
      );
      await h.fillShopper(page);
      await pick(page).click();
      await payNow(page).waitFor();
      const session = await sessionOf(expected.id);
      expect(session.reference).toMatch(/^0x[0-9a-f]{64}$/);
      expect(session.transaction).toMatchObject({ chain_id: 97, value: '0' });
      const transaction = session.transaction!;
      expect(transaction.to.toLowerCase()).toBe(h.busd.toLowerCase());
      expect(transaction.data.endsWith(session.reference.slice(2))).toBe(true);
      await page.getByText(`You send ${session.expected_token_amount} BUSD.`).waitFor();

      await payNow(page).click();
      const paid = await h.expectPaidOnce(page, wallet);
      // Asked once, for the session's transaction as the service built it: no value, nothing changed.
      const [sent] = asked(wallet);
      expect(asked(wallet)).toHaveLength(1);
      expect(sent!.to.toLowerCase()).toBe(transaction.to.toLowerCase());
      expect(sent!.data.toLowerCase()).toBe(transaction.data.toLowerCase());
      expect(BigInt(sent!.value ?? '0x0')).toBe(0n);
      // On the chain: the transfer of the exact amount, followed by the reference.
      expect(paid.detail.txHash).toBe(wallet.sent[0]);
      expect(await inputOf(wallet.sent[0]!)).toBe(transaction.data.toLowerCase());
      const { args } = decodeFunctionData({ abi: erc20Abi, data: transaction.data });
      expect(args).toEqual([
        expect.stringMatching(new RegExp(`^${session.receiving_address}$`, 'i')),
        parseUnits(session.expected_token_amount, 18),
      ]);
      expect(await h.busdBalance(privateKeyToAccount(key).address)).toBe(
        parseUnits('10', 18) - parseUnits(session.expected_token_amount, 18),
      );
      await page.close();
    });

    it('still pays with a wallet that drops the data suffix: by the exact amount the session holds', async () => {
      const product = await h.createProduct();
      // Another open session holds the price itself: this one holds the price plus a few millionths.
      const other = await h.expectPayment(product.id, '6.20');
      const held = await h.service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
        json: {
          expected_payment_id: other.id,
          email: 'someone@example.com',
          custom_fields: { full_name: 'Someone Else' },
          sender_address: randomAddress(),
          token_address: h.busd,
        },
      });
      expect(held.status, held.text).toBe(200);
      expect(held.body.session.expected_token_amount).toBe('6.2');
      const expected = await h.expectPayment(product.id, '6.20');
      const key = await h.freshShopper('10');
      const { page, wallet } = await h.openPage(
        key,
        `/checkout/${product.slug}?expected_payment=${expected.id}`,
        { wallet: { stripDataSuffix: true } },
      );
      await h.fillShopper(page);
      await pick(page).click();
      await payNow(page).waitFor();
      const session = await sessionOf(expected.id);
      expect(session.expected_token_amount).toMatch(/^6\.200\d{0,3}[1-9]$/);
      // The review says the exact amount that leaves the wallet.
      await page.getByText(`You send ${session.expected_token_amount} BUSD.`).waitFor();

      await payNow(page).click();
      await h.expectPaidOnce(page, wallet);
      // The page asked for the reference; the wallet sent the transfer without it.
      expect(asked(wallet)[0]!.data.toLowerCase()).toBe(session.transaction!.data.toLowerCase());
      const input = await inputOf(wallet.sent[0]!);
      expect(input).not.toContain(session.reference.slice(2));
      expect(decodeFunctionData({ abi: erc20Abi, data: input as Hex }).args[1]).toBe(
        parseUnits(session.expected_token_amount, 18),
      );
      expect((await sessionById(session.id)).status).toBe('resolved');
      // The session holding the price is untouched: the exact amount named this one.
      expect((await sessionById(held.body.session.id as string)).status).toBe('awaiting_payment');
      await page.close();
    });

    it("pays from a smart account whose relayer executes the shopper's call, through the reference it carries", async () => {
      const product = await h.createProduct();
      const expected = await h.expectPayment(product.id, '6.30');
      const key = await h.freshShopper('10');
      const shopper = privateKeyToAccount(key).address;
      const relayerKey = await h.freshShopper();
      const relayer = privateKeyToAccount(relayerKey).address;
      const { page, wallet } = await h.openPage(
        key,
        `/checkout/${product.slug}?expected_payment=${expected.id}`,
        { wallet: { relayerKey } },
      );
      await h.fillShopper(page);
      await pick(page).click();
      await payNow(page).click();
      const paid = await h.expectPaidOnce(page, wallet);
      const session = await sessionOf(expected.id);
      expect(session.status).toBe('resolved');
      expect(session.tx_hash?.toLowerCase()).toBe(wallet.sent[0]!.toLowerCase());
      // The paying transaction is the relayer's: neither from the shopper nor a plain transfer, yet it
      // carries the session's reference after its arguments.
      const tx = await h.chain.publicClient.getTransaction({ hash: paid.detail.txHash as Hex });
      expect(tx.from.toLowerCase()).toBe(relayer.toLowerCase());
      const call = decodeFunctionData({ abi: erc20Abi, data: tx.input });
      expect(call.functionName).toBe('transferFrom');
      expect(call.args[0]).toBe(shopper);
      expect(tx.input.toLowerCase().endsWith(session.reference.slice(2))).toBe(true);
      expect(await h.busdBalance(shopper)).toBe(
        parseUnits('10', 18) - parseUnits(session.expected_token_amount, 18),
      );
      await page.close();
    });

    it("sends the opener's secret from a merchant's origin: with the re-post that changes the session, and with its close", async () => {
      const product = await h.createProduct({ open_amount: true, tax_rate: 0, custom_fields: [] });
      const url = h.site.page(
        `/tip/${product.slug}`,
        `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tip jar</title>
<script type="module" src="${h.service.url}/widget/crypto-checkout.js"></script>
</head>
<body>
<main>
<h1>Tip jar</h1>
<crypto-checkout slug="${product.slug}" api-base="${h.service.url}"></crypto-checkout>
</main>
</body>
</html>`,
      );
      const { page, wallet } = await h.openPage(await h.freshShopper('10'), url);
      const posts: Request[] = [];
      const secrets: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && /\/sessions$|\/close$/.test(request.url())) posts.push(request);
      });
      page.on('response', async (response) => {
        if (response.request().method() !== 'POST' || !response.url().endsWith('/sessions')) return;
        const secret = ((await response.json().catch(() => ({}))) as { client_secret?: string })
          .client_secret;
        if (secret) secrets.push(secret);
      });
      await page.getByLabel('E-mail').fill('shopper@example.com');
      await page.getByLabel('Amount (USD)').fill('2.40');
      await pick(page).click();
      await payNow(page).waitFor();
      const { id } = await h.service.deps.db.kysely
        .selectFrom('checkout_sessions')
        .select('id')
        .where('product_id', '=', product.id)
        .executeTakeFirstOrThrow();

      // The same wallet again: the session is updated, which only its opener may do. From this origin the
      // header takes a CORS preflight that must allow it; refused, the page says the network failed.
      await page.getByRole('button', { name: 'Use another wallet' }).click();
      await pick(page).click();
      await payNow(page).or(page.getByText('reported an error')).waitFor();
      expect(
        await h.elementText(page),
        'the re-post with X-Client-Secret was refused (CORS preflight of the service)',
      ).not.toContain('reported an error');
      // Another amount: the attempt is given up and closed, with its secret.
      await page.getByRole('button', { name: 'Use another wallet' }).click();
      await page.getByLabel('Amount (USD)').fill('2.50');
      await expect.poll(() => posts.filter((r) => r.url().endsWith('/close')).length).toBe(1);
      await expect.poll(async () => (await sessionById(id)).status, { timeout: 10_000 }).toBe('closed');

      expect(secrets[0]).toMatch(/^cs_/);
      const headers = posts.map((r) => r.headers()['x-client-secret'] ?? null);
      expect(headers).toEqual([null, secrets[0], secrets[0]]);

      await pick(page).click();
      await page.getByText('You send 2.5 BUSD.').waitFor();
      await payNow(page).click();
      await h.expectPaidOnce(page, wallet);
      await page.close();
    });
  },
);

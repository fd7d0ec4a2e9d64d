/// <reference lib="dom" />
/**
 * Paying from another device on a chain in `deposit_address` mode: the element shows the session's own
 * deposit address, a QR code of its EIP-681 `payment_uri` and one of the address alone with the amount to send.
 * Both codes are decoded from the pixels Chromium draws, the shown amount is sent to the shown address from an
 * account the page never saw, and the element shows the checkout paid. A shopper shown the codes who pays
 * with a wallet in the browser instead, through a swap, pays the deposit address too.
 */
import { uniswapV2RouterAbi } from '@checkout/core/uniswapV2Router';
import jsQR from 'jsqr';
import type { Locator } from 'playwright-core';
import { type Address, decodeFunctionData, erc20Abi, type Hex, parseUnits, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress } from '../support/service.ts';
import { browserUnavailable } from './support/browser.ts';
import { type CheckoutHarness, startCheckoutHarness } from './support/checkoutHarness.ts';

/** Side of the square a QR code is drawn into before it is decoded, in pixels. */
const side = 400;

/** What a QR code on the page encodes: its SVG drawn on a white canvas, read back and decoded. */
async function decodeQr(code: Locator): Promise<string | null> {
  const pixels = await code.evaluate(async (svg, size) => {
    const copy = svg.cloneNode(true) as SVGSVGElement;
    copy.setAttribute('width', String(size));
    copy.setAttribute('height', String(size));
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size, size);
    context.drawImage(image, 0, 0, size, size);
    return Array.from(context.getImageData(0, 0, size, size).data);
  }, side);
  // The package is CommonJS: its function is the module's `default` export.
  return jsQR.default(Uint8ClampedArray.from(pixels), side, side)?.data ?? null;
}

describe.skipIf(databaseUnavailable() || browserUnavailable())(
  'paying a deposit address from another device',
  () => {
    let h: CheckoutHarness;

    beforeAll(async () => {
      h = await startCheckoutHarness({
        env: {
          PHONE_PAYMENT_MODE_BINANCE_SMART_CHAIN_TESTNET: 'deposit_address',
          CHECKOUT_SCAN_INTERVAL_MS: '100',
        },
      });
    });
    afterAll(async () => {
      await h?.stop();
    });

    it('shows the deposit address in two QR codes that decode to the request and the address, and resolves the amount sent there', async () => {
      const product = await h.createProduct();
      const expected = await h.expectPayment(product.id, '6.40');
      const { page, wallet } = await h.openPage(
        0,
        `/checkout/${product.slug}?expected_payment=${expected.id}`,
        {
          wallet: { announce: false },
        },
      );
      await h.fillShopper(page);
      await page.getByRole('button', { name: 'Pay from another device' }).click();
      const request = page.getByRole('img', { name: /^QR code of the payment request ethereum:/ });
      await request.waitFor();

      const row = await h.service.deps.db.kysely
        .selectFrom('checkout_sessions')
        .select('id')
        .where('expected_payment_id', '=', expected.id)
        .executeTakeFirstOrThrow();
      const { session } = (await h.service.request('GET', `/api/v1/checkout/sessions/${row.id}`)).body as {
        session: { payment_uri: string; deposit_address: string; expected_token_amount: string };
      };
      expect(session.deposit_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(session.payment_uri).toBe(
        `ethereum:${h.busd}@97/transfer?address=${session.deposit_address}&uint256=${parseUnits('6.40', 18)}`,
      );

      // What a phone's camera reads: the request, and the address alone.
      expect(await decodeQr(request)).toBe(session.payment_uri);
      const addressOnly = page.getByRole('img', { name: session.deposit_address, exact: true });
      expect(await decodeQr(addressOnly)).toBe(session.deposit_address);
      await page.getByText('The address alone, for a wallet or exchange that asks for an address:').waitFor();
      const asked = await page.getByText(/^Send .* on .* to this address of your order:$/).textContent();
      const amount = /^Send ([\d.]+) BUSD on /.exec(asked ?? '')?.[1];
      // The price as the header shows it (6.40): the amount the session asks.
      expect(parseUnits(amount!, 18)).toBe(parseUnits(session.expected_token_amount, 18));

      // A wallet the page never saw sends the shown amount to the shown address.
      const tx = await h.chain.transfer(
        3,
        h.busd,
        session.deposit_address as Address,
        parseUnits(amount!, 18),
      );
      const result = await h.outcome(page);
      expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
      expect(result.detail.txHash).toBe(tx.toLowerCase());
      await page.getByText('Payment received. Thank you!').waitFor();
      expect(wallet.sent).toEqual([]);
      await page.close();
    });
    it('sends the swap of a wallet connected after the codes were shown to the deposit address, which resolves it', async () => {
      // Shopper #2 holds DAI and none of the product's BUSD.
      const shopper = h.chain.deployment.shoppers[2]!.address as Address;
      const held = await h.chain.publicClient.readContract({
        address: h.busd,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [shopper],
      });
      await h.chain.transfer(2, h.busd, randomAddress() as Address, held);
      const product = await h.createProduct({ custom_fields: [] });
      const expected = await h.expectPayment(product.id, '3.25');
      const { page, wallet } = await h.openPage(
        2,
        `/checkout/${product.slug}?expected_payment=${expected.id}`,
      );
      await page.getByLabel('E-mail').fill('shopper@example.com');
      await page.getByRole('button', { name: 'Pay from another device' }).click();
      await page.getByRole('img', { name: /^QR code of the payment request ethereum:/ }).waitFor();
      await page.getByRole('button', { name: 'Pay with Test Wallet' }).click();
      await page.getByText(/the merchant receives exactly 3\.25 BUSD\./).waitFor();
      await page.getByRole('button', { name: 'Pay now' }).click();
      const result = await h.outcome(page);
      expect(result.type, JSON.stringify(result.detail)).toBe('checkout-success');
      await page.getByText('Payment received. Thank you!').waitFor();

      const { session } = (
        await h.service.request('GET', `/api/v1/checkout/sessions/${result.detail.sessionId}`)
      ).body as { session: { deposit_address: string; reference: string } };
      expect(session.deposit_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      const swap = wallet.requests
        .filter((r) => r.method === 'eth_sendTransaction')
        .map((r) => (r.params[0] as { data: Hex }).data)
        .find((data) =>
          data.startsWith(
            toFunctionSelector('swapTokensForExactTokens(uint256,uint256,address[],address,uint256)'),
          ),
        )!;
      expect(swap.endsWith(session.reference.slice(2))).toBe(true);
      const { args } = decodeFunctionData({ abi: uniswapV2RouterAbi, data: swap });
      expect(args[3]).toBe(session.deposit_address);
      const hook = await h.expectWebhookFor(result.detail.resolvedPaymentId!);
      expect(hook.payment).toMatchObject({ swapped: true, received_token_amount: '3.25' });
      await page.close();
    });
  },
);

/** One payment through the public API exactly as the widget makes it: session → transfer → submit hash. */
import { type Address, parseUnits } from 'viem';
import type { CheckoutReady } from './protocol.ts';
import type { BenchReceiver } from './receiver.ts';
import type { Shoppers } from './shoppers.ts';

/** The product every benchmark payment is for, with what paying it needs. */
export interface BenchProduct {
  id: string;
  slug: string;
  token: Address;
  /** The token's decimals: a payment sends the session's `expected_token_amount` in base units. */
  decimals: number;
  dollarAmount: string;
}

/** Timings of one resolved payment (epoch ms unless named otherwise). */
export interface PaymentTiming {
  expectedPaymentId: string;
  txHash: string;
  /** When `waitForTransactionReceipt` returned. */
  minedAt: number;
  /** When the submit-hash request was answered. */
  submittedAt: number;
  /** When the merchant's receiver got the webhook. */
  webhookAt: number;
  /** Receipt returned → webhook received, on the monotonic clock. */
  latencyMs: number;
  /** Set when the submit-hash request failed although the payment resolved. */
  submitError?: string;
}

async function call(
  ready: CheckoutReady,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  merchant: boolean,
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (merchant) {
    headers.authorization = `Bearer ${ready.merchant.key}`;
    headers['x-address'] = ready.merchant.address;
  }
  const response = await fetch(`${ready.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Creates the product (webhook to `receiver`, no e-mail) on the merchant API. */
export async function createBenchProduct(
  ready: CheckoutReady,
  receiver: BenchReceiver,
  token: Address,
  decimals: number,
): Promise<BenchProduct> {
  const body = await call(
    ready,
    'POST',
    '/api/v1/products',
    {
      product: {
        name: 'Bench checkout',
        email: 'merchant@example.com',
        active: true,
        send_webhook: true,
        webhook_url: receiver.url,
        send_email: false,
        token: { blockchain: 'binance-smart-chain', network: 'testnet', address: token },
      },
    },
    true,
  );
  const product = body.product as { id: string; slug: string };
  return { id: product.id, slug: product.slug, token, decimals, dollarAmount: '1.00' };
}

/** Pays one expected payment with shopper `shopper` and waits (bounded) for its webhook. */
export async function payOnce(options: {
  ready: CheckoutReady;
  product: BenchProduct;
  shoppers: Shoppers;
  shopper: number;
  receiver: BenchReceiver;
  webhookTimeoutMs: number;
}): Promise<PaymentTiming> {
  const { ready, product, shoppers, shopper, receiver } = options;
  const expected = (
    await call(
      ready,
      'POST',
      `/api/v1/products/${product.id}/expected_payments`,
      { dollar_amount: product.dollarAmount },
      true,
    )
  ).expected_payment as { id: string };
  const sender = shoppers.address(shopper);
  const session = (
    await call(
      ready,
      'POST',
      `/api/v1/checkout/${product.slug}/sessions`,
      {
        expected_payment_id: expected.id,
        email: 'shopper@example.com',
        custom_fields: {},
        sender_address: sender,
        token_address: product.token,
      },
      false,
    )
  ).session as { id: string; reference: string; expected_token_amount: string };
  // Listening starts before the transfer: the workflow's chain scan may find it before the hash arrives.
  const webhook = receiver.waitFor(expected.id, options.webhookTimeoutMs);
  webhook.catch(() => {});
  const mined = await shoppers.transfer(
    shopper,
    product.token,
    ready.merchant.address as Address,
    parseUnits(session.expected_token_amount, product.decimals),
    session.reference,
  );
  let submitError: string | undefined;
  try {
    await call(
      ready,
      'POST',
      `/api/v1/checkout/sessions/${session.id}/transactions`,
      { tx_hash: mined.hash },
      false,
    );
  } catch (error) {
    // The scan may have resolved the session first; the webhook decides whether the payment counts.
    submitError = (error as Error).message;
  }
  const submittedAt = Date.now();
  const arrival = await webhook;
  return {
    expectedPaymentId: expected.id,
    txHash: mined.hash,
    minedAt: mined.minedAt,
    submittedAt,
    webhookAt: arrival.at,
    latencyMs: arrival.atMono - mined.minedAtMono,
    ...(submitError === undefined ? {} : { submitError }),
  };
}

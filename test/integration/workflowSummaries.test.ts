/**
 * What ops see in the Temporal UI: workflows started by the API carry a one-line summary and details, keep
 * their `Summary` line and current details up to date as they move, and are found by the merchant's wallet.
 */
import {
  checkoutWorkflowId,
  kycWorkflowId,
  onrampWorkflowId,
  refundWorkflowId,
  webhookWorkflowId,
} from '@checkout/workflows';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createOnrampReadyUser, createUser, decideKyc } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestService } from '../support/service.ts';
import { shownOnceAt } from '../support/temporal.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('workflow summaries in the Temporal UI', () => {
  let service: TestService;
  let chain: TestChain;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    chain = await startTestChain();
    receiver = await startWebhookReceiver();
    service = await startTestService({ env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl } });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await chain?.stop();
  });

  it("a user's KYC onboarding says what it is and whose, by id, and where the case stands", async () => {
    const merchant = await service.createMerchant();
    const userId = await createUser(service, merchant);
    const handle = service.deps.temporal!.client.workflow.getHandle(kycWorkflowId(userId));
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe('KYC onboarding · individual user');
    expect(await description.staticDetails()).toBe(`user: ${userId}`);

    await decideKyc(service, merchant, userId, { status: 'approved' });
    const shown = await shownOnceAt(handle, 'approved');
    expect(shown.summary).toBe('KYC onboarding · individual user · approved');
    expect(shown.details).toMatch(/^- \*\*Approved\*\*\n- EUR: approved, SWIFT: /);
  });

  it("a paid checkout and its webhook delivery show the payment, and the merchant's wallet finds both", async () => {
    const merchant = await service.createMerchant();
    const busd = chain.deployment.tokens.BUSD.address;
    const created = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Summary tea',
          email: 'merchant@example.com',
          active: true,
          send_webhook: true,
          webhook_url: receiver.url,
          send_email: false,
          custom_fields: [],
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const product = created.body.product as { id: string; slug: string; address: string };
    const ep = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: '4.25' },
    });
    expect(ep.status, ep.text).toBe(200);
    const expectedPaymentId = ep.body.expected_payment.id as string;
    const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        custom_fields: {},
        expected_payment_id: expectedPaymentId,
        sender_address: chain.deployment.shoppers[0]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const client = service.deps.temporal!.client;
    const checkout = client.workflow.getHandle(checkoutWorkflowId(expectedPaymentId));
    const waiting = await shownOnceAt(checkout, 'awaiting payment');
    expect(waiting.summary).toBe('Checkout $4.25 · Summary tea · awaiting payment');

    const hash = await chain.transfer(0, busd, merchant.address as Address, parseUnits('4.25', 18));
    const submitted = await service.request(
      'POST',
      `/api/v1/checkout/sessions/${opened.body.session.id}/transactions`,
      { json: { tx_hash: hash } },
    );
    expect(submitted.status, submitted.text).toBe(200);
    const [request] = await receiver.waitFor(1, 60_000);
    const deliveryId = String(request!.headers['x-webhook-id']);

    // The checkout was started awaiting payment; after the payment it says so, in the list and on its page.
    const description = await checkout.describe();
    expect(await description.staticSummary()).toBe('Checkout $4.25 · Summary tea');
    const paid = await shownOnceAt(checkout, 'resolved');
    expect(paid.summary).toBe('Checkout $4.25 · Summary tea · resolved');
    const resolvedPaymentId = (await checkout.query<{ resolvedPaymentId: string }>('checkoutState'))
      .resolvedPaymentId;
    expect(paid.details).toBe(
      `- **Resolved**: paid by transaction \`${hash.toLowerCase()}\`\n- resolved payment \`${resolvedPaymentId}\``,
    );

    const delivery = client.workflow.getHandle(webhookWorkflowId(deliveryId));
    const host = new URL(receiver.url).host;
    expect(await (await delivery.describe()).staticSummary()).toBe(
      `Webhook resolved_payment.created → ${host}`,
    );
    const delivered = await shownOnceAt(delivery, 'delivered (1 attempt)');
    expect(delivered.details).toBe('- **Delivered** on attempt 1');

    // The wallet the merchant knows (its X-ADDRESS, the product's `address`) finds the checkout and its
    // delivery, spelled as the API shows it or in lowercase.
    expect(product.address).toBe(merchant.address);
    for (const wallet of [product.address, product.address.toLowerCase()]) {
      const found = await listUntil(`MerchantWallet = "${wallet}"`, 2);
      expect(found.sort()).toEqual([checkout.workflowId, delivery.workflowId].sort());
    }
    expect(await listUntil(`MerchantWallet = "${randomAddress()}"`, 0)).toEqual([]);
  });

  it('an onramp names the fiat deposited and the tokens sent, and shows the tokens sent', async () => {
    const merchant = await service.createMerchant();
    const userId = await createOnrampReadyUser(service, merchant, receiver.url);
    const res = await service.request('POST', `/users/${userId}/onramps`, {
      headers: authOf(merchant),
      json: {
        onramp: {
          destination_amount: 1000,
          crypto_currency: 'usdc',
          crypto_rails: 'binance-smart-chain',
          destination_address: randomAddress(),
          fiat_currency: 'usd',
          fiat_rails: 'ach_push',
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    const onrampId = res.body.onramp.id as string;
    const handle = service.deps.temporal!.client.workflow.getHandle(onrampWorkflowId(onrampId));
    expect(await (await handle.describe()).staticSummary()).toBe('Onramp 1004.00 USD → 1000.00 USDC');
    const unfunded = await shownOnceAt(handle, 'initiated');
    expect(unfunded.details).toMatch(/^- \*\*Initiated\*\*\n- expires at \S+Z unless the deposit arrives$/);

    const deposit = await service.request('POST', `/sandbox/users/${userId}/onramps/${onrampId}/deposit`, {
      headers: authOf(merchant),
      json: { amount: 1004 },
    });
    expect(deposit.status, deposit.text).toBe(200);
    const sent = await shownOnceAt(handle, 'crypto sent', 60_000);
    expect(sent.summary).toBe('Onramp 1004.00 USD → 1000.00 USDC · crypto sent');
  });

  it('a late payment says so, its price grouped; its confirmed refund names what it is and shows it confirmed', async () => {
    const merchant = await service.createMerchant();
    const busd = chain.deployment.tokens.BUSD.address;
    const created = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Summary piano',
          email: 'merchant@example.com',
          active: true,
          send_webhook: false,
          send_email: false,
          custom_fields: [],
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const product = created.body.product as { id: string; slug: string };
    const ep = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: '1234.56' },
    });
    expect(ep.status, ep.text).toBe(200);
    const expectedPaymentId = ep.body.expected_payment.id as string;
    const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        custom_fields: {},
        expected_payment_id: expectedPaymentId,
        sender_address: chain.deployment.shoppers[0]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const late = await service.request(
      'POST',
      `/sandbox/checkout/sessions/${opened.body.session.id}/simulate`,
      {
        headers: merchant.headers,
        json: { outcome: 'paid_late' },
      },
    );
    expect(late.status, late.text).toBe(200);
    const client = service.deps.temporal!.client;
    const checkout = client.workflow.getHandle(checkoutWorkflowId(expectedPaymentId));
    expect(await (await checkout.describe()).staticSummary()).toBe('Checkout $1,234.56 · Summary piano');
    const paidLate = await shownOnceAt(checkout, 'paid late', 60_000);
    expect(paidLate.summary).toBe('Checkout $1,234.56 · Summary piano · paid late');
    expect(paidLate.details).toMatch(
      /^- \*\*Paid late\*\*, after the expiry: paid by transaction `0x[0-9a-f]{64}`/,
    );

    const paymentId = (await checkout.query<{ resolvedPaymentId: string }>('checkoutState'))
      .resolvedPaymentId;
    const requested = await service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'Changed my mind', amount: '1' },
    });
    expect(requested.status, requested.text).toBe(201);
    const refundId = requested.body.refund.id as string;
    const simulateRefund = (json: unknown) =>
      service.request('POST', `/sandbox/refunds/${refundId}/simulate`, { headers: merchant.headers, json });
    const claimed = await simulateRefund({
      outcome: 'claimed',
      refund_address: chain.deployment.shoppers[1]!.address,
    });
    expect(claimed.status, claimed.text).toBe(200);
    const paid = await simulateRefund({ outcome: 'paid' });
    expect(paid.status, paid.text).toBe(200);
    const refund = client.workflow.getHandle(refundWorkflowId(refundId));
    // Started awaiting an address: its start summary names the refund, not that passing status.
    expect(await (await refund.describe()).staticSummary()).toBe(`Refund 1 BUSD · payment ${paymentId}`);
    const confirmed = await shownOnceAt(refund, 'confirmed', 60_000, true);
    expect(confirmed.summary).toBe(`Refund 1 BUSD · confirmed · payment ${paymentId}`);
    expect(confirmed.details).toMatch(/^- \*\*Confirmed\*\*: transaction `0x[0-9a-f]{64}`$/);
  });

  /** Workflow ids the query lists once it lists `count` of them (visibility is eventually consistent). */
  async function listUntil(query: string, count: number): Promise<string[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ids: string[] = [];
      for await (const workflow of service.deps.temporal!.client.workflow.list({ query })) {
        ids.push(workflow.workflowId);
      }
      if (ids.length >= count || Date.now() > deadline) return ids;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

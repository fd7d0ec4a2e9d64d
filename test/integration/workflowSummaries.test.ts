/** What ops see in the Temporal UI: workflows started by the API carry a one-line summary and details. */
import { kycWorkflowId, webhookWorkflowId } from '@checkout/workflows';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';
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

  it("a user's KYC onboarding says what it is and whose, by id", async () => {
    const merchant = await service.createMerchant();
    const userId = await createUser(service, merchant);
    const handle = service.deps.temporal!.client.workflow.getHandle(kycWorkflowId(userId));
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe('KYC onboarding · individual user');
    expect(await description.staticDetails()).toBe(`user: ${userId}`);
  });

  it("a payment's webhook delivery, started by its checkout, names the event and the receiver's host", async () => {
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
    const product = created.body.product as { id: string; slug: string };
    const ep = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: '4.25' },
    });
    expect(ep.status, ep.text).toBe(200);
    const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        custom_fields: {},
        expected_payment_id: ep.body.expected_payment.id,
        sender_address: chain.deployment.shoppers[0]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const hash = await chain.transfer(0, busd, merchant.address as Address, parseUnits('4.25', 18));
    const submitted = await service.request(
      'POST',
      `/api/v1/checkout/sessions/${opened.body.session.id}/transactions`,
      { json: { tx_hash: hash } },
    );
    expect(submitted.status, submitted.text).toBe(200);
    const [request] = await receiver.waitFor(1, 60_000);
    const deliveryId = String(request!.headers['x-webhook-id']);
    const handle = service.deps.temporal!.client.workflow.getHandle(webhookWorkflowId(deliveryId));
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe(
      `Webhook resolved_payment.created → ${new URL(receiver.url).host}`,
    );
  });
});

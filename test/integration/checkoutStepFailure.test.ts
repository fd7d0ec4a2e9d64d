/**
 * A checkout step that fails for good does not end the checkout: a payment the database refuses to record
 * is noted on the session (`error`), in the workflow's memo and the log, and a later transaction still
 * pays the checkout. The refusal is injected into the recording step for one transaction.
 */

import { checkoutWorkflowId, failedStepMemo, finalFailureTypes } from '@checkout/workflows';
import { ApplicationFailure } from '@temporalio/common';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('a checkout step that fails for good', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  const refused = new Set<string>();
  // The worker's own recordResolution, reached through this one for every transaction not refused.
  let real: ((input: { txHash: string }) => Promise<unknown>) | undefined;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '600',
      },
      extraActivities: {
        async recordResolution(input: { txHash: string }) {
          if (refused.has(input.txHash.toLowerCase())) {
            throw ApplicationFailure.create({
              type: finalFailureTypes.invalidData,
              nonRetryable: true,
              message: 'invalid byte sequence for encoding "UTF8": 0x00 (SQLSTATE 22021)',
            });
          }
          return real!(input);
        },
      },
    });
    const { createCheckoutActivities } = await import('@checkout/workflows');
    const own = createCheckoutActivities({
      db: service.deps.db,
      secrets: service.deps.secrets,
      tokens: service.deps.tokens,
      chains: service.deps.chains,
      checkout: { pollIntervalMs: 100, shortPaymentWaitMs: 600_000 },
    });
    real = own.recordResolution as (input: { txHash: string }) => Promise<unknown>;
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  it('notes a payment it cannot record on the session, and a later transaction pays it', async () => {
    const busd = chain.deployment.tokens.BUSD.address;
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Fragile beans',
          email: 'merchant@example.com',
          active: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    const expected = await service.request(
      'POST',
      `/api/v1/products/${product.body.product.id}/expected_payments`,
      {
        headers: merchant.headers,
        json: { dollar_amount: '2.00' },
      },
    );
    const shopper = chain.deployment.shoppers[1]!.address;
    const opened = await service.request('POST', `/api/v1/checkout/${product.body.product.slug}/sessions`, {
      json: {
        expected_payment_id: expected.body.expected_payment.id,
        email: 'shopper@example.com',
        custom_fields: {},
        sender_address: shopper,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const sessionId = opened.body.session.id as string;
    const submit = (tx: string) =>
      service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
        json: { tx_hash: tx },
      });
    const waitFor = async (done: (s: { status: string; error: string | null }) => boolean) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const s = (await service.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session;
        if (done(s)) return s;
        if (Date.now() > deadline) throw new Error(`session stayed ${JSON.stringify(s)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const first = await chain.transfer(1, busd, merchant.address as Address, parseUnits('2', 18));
    refused.add(first.toLowerCase());
    expect((await submit(first)).status).toBe(200);
    const noted = await waitFor((s) => s.error !== null && s.status === 'awaiting_payment');
    expect(noted.error).toMatch(
      new RegExp(`^The payment in ${first.toLowerCase()} could not be recorded: .+SQLSTATE 22021`),
    );
    const handle = service.deps.temporal!.client.workflow.getHandle(
      checkoutWorkflowId(expected.body.expected_payment.id),
    );
    const description = await handle.describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.memo?.[failedStepMemo]).toMatchObject({
      step: 'record payment',
      type: finalFailureTypes.invalidData,
    });

    const second = await chain.transfer(1, busd, merchant.address as Address, parseUnits('2', 18));
    expect((await submit(second)).status).toBe(200);
    const paid = await waitFor((s) => s.status === 'resolved');
    expect(paid).toMatchObject({ tx_hash: second.toLowerCase(), error: null });
  });
});

/**
 * A webhook receiver that answers each request 6 s after it arrived, through the real checkout (chain,
 * worker, Temporal), with a 9 s request timeout (`WEBHOOK_TIMEOUT_SECONDS`): it gets each event once. The
 * payment's first attempt waits 3 s for the answer (it runs before the shopper's submission is answered) but
 * its request is not cut off, and the next attempt, after the request's timeout, finds the delivery done; a
 * redelivery's attempt waits for the answer.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookWorkflowId } from '@checkout/workflows';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

/** How long the receiver takes to answer each request: longer than the first attempt waits, within the timeout. */
const answerAfterMs = 6_000;

describe.skipIf(databaseUnavailable())('a webhook receiver that answers in 6 s', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  const received: IncomingHttpHeaders[] = [];
  let answered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.headers);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}', () => {
          answered += 1;
        });
      }, answerAfterMs);
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    chain = await startTestChain();
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        CHAIN_POLL_INTERVAL_MS: '100',
        WEBHOOK_TIMEOUT_SECONDS: '9',
      },
    });
    merchant = await service.createMerchant();
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    receiver.closeAllConnections();
    await Promise.all([chain?.stop(), new Promise((r) => receiver.close(r))]);
  });

  const requestsOf = (deliveryId: string) => received.filter((h) => h['x-webhook-id'] === deliveryId);
  const delivery = (deliveryId: string) =>
    service.deps.temporal!.client.workflow.getHandle(webhookWorkflowId(deliveryId));

  it("delivers a payment's webhook once, and a redelivery of it once", async () => {
    const busd = chain.deployment.tokens.BUSD.address;
    const { port } = receiver.address() as AddressInfo;
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Beans for a slow shop',
          email: 'merchant@example.com',
          active: true,
          open_amount: true,
          send_webhook: true,
          webhook_url: `http://127.0.0.1:${port}/hooks`,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    const opened = await service.request('POST', `/api/v1/checkout/${product.body.product.slug}/sessions`, {
      json: {
        dollar_amount: '3.00',
        email: 'shopper@example.com',
        sender_address: chain.deployment.shoppers[0]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const tx = await chain.transfer(0, busd, merchant.address as Address, parseUnits('3', 18));
    const submitted = await service.request(
      'POST',
      `/api/v1/checkout/sessions/${opened.body.session.id}/transactions`,
      { json: { tx_hash: tx } },
    );
    expect(submitted.status, submitted.text).toBe(200);

    // The delivery's workflow ends succeeded: no attempt can follow. Its attempt 2, made after the first
    // request's timeout, found the delivery done and sent nothing.
    const first = await service.deps.db.kysely
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('product_id', '=', product.body.product.id)
      .executeTakeFirstOrThrow();
    expect(await delivery(first.id).result()).toMatchObject({ status: 'succeeded' });
    expect(requestsOf(first.id)).toHaveLength(1);
    expect(answered).toBe(1);
    const row = await service.deps.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempt_count'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'succeeded', attempt_count: 1 });

    // A redelivery makes its first attempt in its own workflow, waiting for the answer.
    const again = await service.request('POST', `/api/v1/webhook_deliveries/${first.id}/redeliver`, {
      headers: merchant.headers,
    });
    expect(again.status, again.text).toBe(200);
    const second = again.body.webhook_delivery.id as string;
    expect(await delivery(second).result()).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(requestsOf(second)).toHaveLength(1);
    expect(received).toHaveLength(2);
  }, 180_000);
});

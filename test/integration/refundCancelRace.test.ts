/**
 * A cancel never loses a refund transfer the chain already holds: the merchant's wallet pays a refund and the
 * merchant cancels it before the chain's watcher has read that block (its look here is every 5 s). The cancel
 * is refused, naming the transfer; the watcher then recognises it and it counts against what the payment
 * received. A part payment read that way counts too once the rest is canceled, and the refunds of a payment
 * never add up to more than it received. Real server and worker, real Temporal, a local EVM chain.
 */
import { createApiKey } from '@checkout/db';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../support/chain.ts';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, type TestService } from '../support/service.ts';
import { waitFor } from '../support/waitFor.ts';

/** The shopper account of the dev chain that is the merchant's receiving wallet here (its key pays). */
const walletOf = 3;

describe.skipIf(databaseUnavailable())('a refund canceled while its transfer is on the chain', () => {
  let chain: TestChain;
  let service: TestService;
  let busd: Address;
  let setup: ChainService | undefined;
  beforeAll(async () => {
    // The watcher looks every 5 s: a cancel sent right after a transfer is mined comes first.
    setup = await startChainService({
      CHAIN_POLL_INTERVAL_MS: '5000',
      CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
    });
    ({ chain, service, busd } = setup);
  }, 180_000);
  afterAll(() => setup?.stop());

  it('refuses the cancel, counts the transfer, and keeps the refunds within what the payment received', async () => {
    const db = service.deps.db.kysely;
    const wallet = chain.deployment.shoppers[walletOf]!.address;
    const merchant = await createApiKey(db, { address: wallet });
    const headers = { authorization: `Bearer ${merchant.key}`, 'x-address': merchant.address };
    const created = await service.request('POST', '/api/v1/products', {
      headers,
      json: {
        product: {
          name: 'Kettle',
          email: `merchant-${merchant.merchantId}@example.com`,
          active: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const product = created.body.product as { id: string; slug: string };
    const expected = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers,
      json: { dollar_amount: '10.00' },
    });
    const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'di@example.com',
        expected_payment_id: expected.body.expected_payment.id,
        sender_address: chain.deployment.shoppers[0]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const sessionId = opened.body.session.id as string;
    const paid: Hash = await chain.transfer(0, busd, wallet, parseUnits('10', 18));
    await service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: paid },
    });
    const session = await waitFor(
      async () => (await service.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session,
      (s) => s.status === 'resolved',
      'the checkout never resolved',
    );
    const paymentId = session.resolved_payment_id as string;
    const customer = randomAddress() as Address;
    const ask = (amount: string) =>
      service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
        headers: { ...headers, 'idempotency-key': `refund-${paymentId}-${amount}` },
        json: { amount, reason: 'The lid was cracked', refund_address: customer },
      });
    const cancel = (id: string) =>
      service.request('POST', `/api/v1/refunds/${id}/cancel`, { headers, json: { reason: 'Sent by hand' } });
    const read = async (id: string) =>
      (await service.request('GET', `/api/v1/refunds/${id}`, { headers })).body.refund;

    // 4 BUSD paid, then the cancel at once: refused, naming the transfer; the watcher recognises it.
    const whole = (await ask('4')).body.refund as { id: string };
    const sent = await chain.transfer(walletOf, busd, customer, parseUnits('4', 18));
    const refused = await cancel(whole.id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.text).toContain(sent.toLowerCase());
    const seen = await waitFor(
      () => read(whole.id),
      (r) => r.status !== 'ready_to_pay',
      'never recognised',
    );
    expect(seen).toMatchObject({ status: 'sent', tx_hash: sent.toLowerCase(), paid_amount: '4' });

    // 1 of a 3 BUSD refund paid, the cancel at once: refused; once the part is seen, the rest is canceled.
    const part = (await ask('3')).body.refund as { id: string };
    await chain.transfer(walletOf, busd, customer, parseUnits('1', 18));
    expect((await cancel(part.id)).status).toBe(409);
    await waitFor(
      () => read(part.id),
      (r) => r.paid_amount === '1',
      'the part payment was never recorded',
    );
    const canceled = await cancel(part.id);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.refund).toMatchObject({ status: 'canceled', paid_amount: '1', amount_due: '2' });

    // 10 received, 4 and 1 given back: 5.5 more is refused, 5 is not.
    const over = await ask('5.5');
    expect(over.status, over.text).toBe(422);
    expect(over.text).toContain('5 BUSD of 10 BUSD');
    expect((await ask('5')).status).toBe(201);
  }, 240_000);
});

/**
 * A refund's part payment that a reorganisation takes away: the refund's workflow looks at its part
 * payments until they have the chain's confirmations; one the chain no longer knows is forgotten, its amount
 * due again with a `refund.updated` webhook, and paying the whole refund afterwards gives back exactly its
 * amount. The dev chain reorganises with `evm_snapshot` / `evm_revert`. Real server and worker, real
 * Temporal.
 */

import { erc20Abi } from '@checkout/chain';
import { createApiKey, findResolvedPayment, listTransfersOfRefund } from '@checkout/db';
import { type Address, encodeFunctionData, type Hash, type Hex, keccak256, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../support/chain.ts';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, type TestService } from '../support/service.ts';
import { waitFor } from '../support/waitFor.ts';
import type { WebhookReceiver } from '../support/webhookReceiver.ts';

/** The shopper account of the dev chain that is the merchant's receiving wallet here (its key pays). */
const walletIndex = 4;

describe.skipIf(databaseUnavailable())('a refund part payment a reorganisation takes away', () => {
  let chain: TestChain;
  let service: TestService;
  let receiver: WebhookReceiver;
  let busd: Address;

  let setup: ChainService | undefined;
  beforeAll(async () => {
    setup = await startChainService({
      CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '3',
      CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
      CHECKOUT_SCAN_INTERVAL_MS: '100',
    });
    ({ chain, service, receiver, busd } = setup);
  }, 180_000);
  afterAll(() => setup?.stop());

  const rpc = (method: string, params: unknown[] = []) =>
    chain.publicClient.request({ method: method as 'eth_chainId', params: params as unknown as undefined });

  let merchant: Awaited<ReturnType<typeof createApiKey>> | undefined;
  /** A paid checkout of the merchant (the dev chain's wallet 4) and a refund of 2.77 of it asked for. */
  const askRefund = async () => {
    const db = service.deps.db.kysely;
    merchant ??= await createApiKey(db, { address: chain.deployment.shoppers[walletIndex]!.address });
    const headers = { authorization: `Bearer ${merchant.key}`, 'x-address': merchant.address };
    const created = await service.request('POST', '/api/v1/products', {
      headers,
      json: {
        product: {
          name: `Teapot ${Math.random().toString(36).slice(2, 8)}`,
          email: 'merchant@example.com',
          active: true,
          send_webhook: true,
          webhook_url: `${receiver.url}/teapot`,
          open_amount: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const product = created.body.product as { id: string; slug: string };
    const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
      json: {
        email: 'dee@example.com',
        token_address: busd,
        dollar_amount: '10.00',
        sender_address: chain.deployment.shoppers[0]!.address,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const sessionId = opened.body.session.id as string;
    const paid: Hash = await chain.transfer(0, busd, merchant.address as Address, parseUnits('10', 18), {
      reference: opened.body.session.reference,
    });
    await chain.mine(3);
    await service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: paid },
    });
    const session = await waitFor(
      async () => (await service.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session,
      (s) => s.status === 'resolved',
      'the checkout resolved',
    );
    const paymentId = session.resolved_payment_id as string;
    const customer = randomAddress() as Address;
    const asked = await service.request('POST', `/api/v1/resolved_payments/${paymentId}/refunds`, {
      headers: { ...headers, 'idempotency-key': `refund-${paymentId}` },
      json: { amount: '2.77', reason: 'A cup was missing', refund_address: customer },
    });
    expect(asked.status, asked.text).toBe(201);
    const refundId = asked.body.refund.id as string;
    const read = async () =>
      (await service.request('GET', `/api/v1/refunds/${refundId}`, { headers })).body.refund;

    return { db, paymentId, refundId, customer, read };
  };

  it('forgets the part payment, asks for its amount again, and the whole refund then gives back its amount once', async () => {
    const { db, paymentId, refundId, customer, read } = await askRefund();
    // 2.70 of it paid, recorded as a part payment; then the chain drops the block that held it.
    const before = await rpc('evm_snapshot');
    const part = await chain.transfer(walletIndex, busd, customer, parseUnits('2.7', 18));
    await waitFor(read, (r) => r.paid_amount === '2.7', 'the part payment recorded');
    await rpc('evm_revert', [before]);
    await chain.mine(4);

    const again = await waitFor(read, (r) => r.paid_amount === '0', 'the part payment forgotten');
    expect(again).toMatchObject({ status: 'ready_to_pay', amount_due: '2.77', tx_hash: null });
    expect(again.payment_request.uri).toContain(`uint256=${parseUnits('2.77', 18)}`);
    expect(await listTransfersOfRefund(db, refundId)).toEqual([]);
    // Told by webhook: its own event (subject `part_gone`), later in the refund's sequence than the part's.
    await waitFor(
      () =>
        db
          .selectFrom('webhook_deliveries')
          .select('status')
          .where('subject_id', '=', `${refundId}:part_gone:${part.toLowerCase()}`)
          .execute(),
      (rows) => rows.length === 1 && rows[0]!.status === 'succeeded',
      'refund.updated of the lost part payment delivered',
    );
    const events = await waitFor(
      async () =>
        receiver.received
          .filter((h) => h.path.endsWith('/teapot'))
          .map(
            (h) =>
              JSON.parse(h.body) as {
                event: string;
                sequence: number;
                payload: { refund: Record<string, unknown> };
              },
          )
          .filter((b) => b.event === 'refund.updated' && b.payload.refund.id === refundId)
          .sort((a, b) => a.sequence - b.sequence),
      (list) => list.length >= 3,
      'the refund.updated of the request, the part payment and its loss',
    );
    expect(events.map((b) => b.payload.refund.paid_amount)).toEqual(['0', '2.7', '0']);
    expect(events.at(-1)!.payload.refund).toMatchObject({ status: 'ready_to_pay', amount_due: '2.77' });
    expect(await rpc('eth_getTransactionReceipt', [part])).toBeNull();

    // The whole refund paid now: sent, confirmed, and the payment gave back 2.77, not 5.47.
    const whole = await chain.transfer(walletIndex, busd, customer, parseUnits('2.77', 18));
    await waitFor(read, (r) => r.status === 'sent', 'the refund sent');
    await chain.mine(3);
    const done = await waitFor(read, (r) => r.status === 'confirmed', 'the refund confirmed');
    expect(done).toMatchObject({ tx_hash: whole.toLowerCase(), paid_amount: '2.77', overpaid_amount: null });
    expect((await findResolvedPayment(db, paymentId))?.refunded_amount).toBe(
      parseUnits('2.77', 18).toString(),
    );
  }, 180_000);

  it('takes a lost part payment off a sent refund: it asks for that amount again and announces refund.updated', async () => {
    const { db, refundId, customer, read } = await askRefund();
    const wallet = privateKeyToAccount(chain.deployment.shoppers[walletIndex]!.privateKey);
    const sign = async (nonce: number, to: Address, data: Hex) =>
      wallet.signTransaction({
        chainId: await chain.publicClient.getChainId(),
        type: 'eip1559',
        nonce,
        gas: 100_000n,
        ...(await chain.publicClient.estimateFeesPerGas()),
        to,
        data,
        value: 0n,
      });
    // 2.70 paid, then the 0.07 that completes the refund: it is sent.
    const before = await rpc('evm_snapshot');
    const part = await chain.transfer(walletIndex, busd, customer, parseUnits('2.7', 18));
    await waitFor(read, (r) => r.paid_amount === '2.7', 'the part payment recorded');
    const nonce = await chain.publicClient.getTransactionCount({
      address: wallet.address,
      blockTag: 'pending',
    });
    const completing = await sign(
      nonce,
      busd,
      encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [customer, parseUnits('0.07', 18)],
      }),
    );
    const completingHash = keccak256(completing);
    await rpc('eth_sendRawTransaction', [completing]);
    const sent = await waitFor(read, (r) => r.status === 'sent', 'the refund sent');
    expect(sent).toMatchObject({ paid_amount: '2.77', tx_hash: completingHash });

    // A reorganisation: the part payment's block is replaced by one where the same wallet's nonce went to
    // another transaction, and the completing transfer is mined again.
    await rpc('evm_setAutomine', [false]);
    try {
      await rpc('evm_revert', [before]);
      await rpc('eth_sendRawTransaction', [completing]);
      await rpc('eth_sendRawTransaction', [await sign(nonce - 1, wallet.address, '0x')]);
      await rpc('evm_mine');
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    await chain.mine(4);
    expect(await rpc('eth_getTransactionReceipt', [part])).toBeNull();
    const again = await waitFor(read, (r) => r.paid_amount === '0.07', 'the lost part payment taken off');
    expect(again).toMatchObject({ status: 'ready_to_pay', amount_due: '2.7', tx_hash: null });
    expect(again.payment_request.uri).toContain(`uint256=${parseUnits('2.7', 18)}`);
    expect((await listTransfersOfRefund(db, refundId)).map((t) => t.tx_hash)).toEqual([completingHash]);
    await waitFor(
      () =>
        db
          .selectFrom('webhook_deliveries')
          .select('status')
          .where('subject_id', '=', `${refundId}:part_gone:${part.toLowerCase()}`)
          .execute(),
      (rows) => rows.length === 1 && rows[0]!.status === 'succeeded',
      'refund.updated of the lost part payment delivered',
    );
    const last = receiver.received
      .filter((h) => h.path.endsWith('/teapot'))
      .map(
        (h) =>
          JSON.parse(h.body) as {
            event: string;
            sequence: number;
            payload: { refund: Record<string, unknown> };
          },
      )
      .filter((b) => b.event === 'refund.updated' && b.payload.refund.id === refundId)
      .sort((a, b) => a.sequence - b.sequence)
      .at(-1);
    expect(last?.payload.refund).toMatchObject({
      status: 'ready_to_pay',
      paid_amount: '0.07',
      amount_due: '2.7',
    });
  }, 120_000);
});

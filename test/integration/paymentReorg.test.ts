/**
 * A resolved payment whose block a reorganisation takes away: marked reversed when its transaction left the
 * chain, moved when it was mined again in another block, and each announced once by webhook and e-mail. An
 * unmatched transfer that left the chain is marked reversed, and its unpaid refund canceled; mined again, it is
 * open again.
 * The dev chain reorganises with `evm_snapshot` / `evm_revert`. Real server and worker, real Temporal.
 */
import { broadcastSignedTransaction, prepareTokenTransfer } from '@checkout/chain';
import { PaymentTimelineResponse, type ResolvedPayment } from '@checkout/core';
import type { DevInbox } from '@checkout/mail';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../support/chain.ts';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import type { TestMerchant, TestService } from '../support/service.ts';
import { waitFor, waitForBlockRead } from '../support/waitFor.ts';
import type { WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('payments a reorganisation takes away', () => {
  let chain: TestChain;
  let service: TestService;
  let inbox: DevInbox;
  let receiver: WebhookReceiver;
  let busd: Address;

  let setup: ChainService | undefined;
  beforeAll(async () => {
    setup = await startChainService({
      CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '0',
      CHECKOUT_SCAN_INTERVAL_MS: '200',
    });
    ({ chain, service, inbox, receiver, busd } = setup);
  });
  afterAll(() => setup?.stop());

  const shopOrder = async (merchant: TestMerchant, dollars: string, payer: string) => {
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Tea',
          email: `m-${merchant.merchantId}@example.com`,
          active: true,
          send_webhook: true,
          webhook_url: receiver.url,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    const productId = product.body.product.id as string;
    const expected = await service.request('POST', `/api/v1/products/${productId}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: dollars },
    });
    const session = await service.request('POST', `/api/v1/checkout/${product.body.product.slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        expected_payment_id: expected.body.expected_payment.id,
        sender_address: payer,
        token_address: busd,
      },
    });
    expect(session.status, session.text).toBe(200);
    return { productId, sessionId: session.body.session.id as string };
  };

  const payments = async (merchant: TestMerchant, productId: string) =>
    (
      await service.request('GET', `/api/v1/products/${productId}/resolved_payments`, {
        headers: merchant.headers,
      })
    ).body.resolved_payments as ResolvedPayment[];
  const recorded = (tx: Hash) =>
    service.deps.db.kysely
      .selectFrom('chain_transfers')
      .selectAll()
      .where('tx_hash', '=', tx.toLowerCase())
      .execute();
  const hooks = (event: string, paymentId: string) =>
    receiver.received.filter((h) => h.headers['x-webhook-event'] === event && h.body.includes(paymentId));
  const snapshot = () => chain.publicClient.request({ method: 'evm_snapshot' as 'eth_chainId' });
  const revert = (id: unknown) =>
    chain.publicClient.request({
      method: 'evm_revert' as 'eth_chainId',
      params: [id] as unknown as undefined,
    });

  /** Pays the session with a transfer signed ahead (so it can be sent again after the reorganisation). */
  const payOnce = async (index: number, to: string, amount: bigint, sessionId: string) => {
    const prepared = await prepareTokenTransfer({
      client: chain.publicClient,
      account: chain.deployment.shoppers[index]!.privateKey,
      token: busd,
      to: to as Address,
      amount,
    });
    await broadcastSignedTransaction({ client: chain.publicClient, serialized: prepared.serialized });
    await chain.publicClient.waitForTransactionReceipt({ hash: prepared.hash, timeout: 30_000 });
    const submitted = await service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
      json: { tx_hash: prepared.hash },
    });
    expect(submitted.status, submitted.text).toBe(200);
    return prepared;
  };

  /** The payment's timeline once it names the reorganisation's e-mail as sent. */
  const timelineWithReorgMail = (merchant: TestMerchant, paymentId: string) =>
    waitFor(
      async () =>
        PaymentTimelineResponse.parse(
          (
            await service.request('GET', `/api/v1/resolved_payments/${paymentId}/timeline`, {
              headers: merchant.headers,
            })
          ).body,
        ).timeline,
      (entries) => entries.some((e) => e.type === 'email' && e.kind === 'reorg' && e.status === 'sent'),
      "the reorganisation's e-mail in the payment's timeline",
    );

  it('marks a payment whose transaction left the chain reversed, and tells the merchant once', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '2.00', chain.deployment.shoppers[0]!.address);
    const before = await snapshot();
    const paid = await payOnce(0, merchant.address, parseUnits('2', 18), order.sessionId);
    const [payment] = await waitFor(
      () => payments(merchant, order.productId),
      (l) => l.length === 1,
      'not paid',
    );
    await waitFor(
      () => recorded(paid.hash),
      (rows) => rows.length === 1,
      'the watcher never recorded it',
    );

    await revert(before);
    await chain.mine(3);
    const [reversed] = await waitFor(
      () => payments(merchant, order.productId),
      (l) => l[0]?.payment.exception_status === 'reversed',
      'the payment was never marked reversed',
    );
    expect(reversed!.id).toBe(payment!.id);
    await waitFor(
      async () => hooks('resolved_payment.reversed', payment!.id),
      (h) => h.length === 1,
      'no webhook',
    );
    const to = `m-${merchant.merchantId}@example.com`;
    const notice = await inbox.waitFor(
      (m) => m.to.includes(to) && m.subject.startsWith('[TEST] Payment reversed'),
      {
        timeoutMs: 30_000,
      },
    );
    expect(notice.text).toContain(paid.hash.toLowerCase());
    // Ticks later (the watcher has read a block mined after), nothing more: one webhook, one e-mail.
    await chain.mine(1);
    await waitForBlockRead(service.deps.db.kysely, 97, await chain.publicClient.getBlockNumber());
    expect(hooks('resolved_payment.reversed', payment!.id)).toHaveLength(1);
    expect(
      (await inbox.list()).filter(
        (m) => m.subject.startsWith('[TEST] Payment reversed') && m.to.includes(to),
      ),
    ).toHaveLength(1);
    const timeline = await timelineWithReorgMail(merchant, payment!.id);
    expect(timeline.filter((e) => e.type === 'reversed')).toHaveLength(1);
    expect(timeline.filter((e) => e.type === 'email' && e.kind === 'reorg')).toEqual([
      expect.objectContaining({ recipient: 'merchant', status: 'sent' }),
    ]);
  });

  it('moves a payment whose transaction was mined again in another block, and tells the merchant', async () => {
    const merchant = await service.createMerchant();
    const order = await shopOrder(merchant, '3.00', chain.deployment.shoppers[1]!.address);
    const before = await snapshot();
    const paid = await payOnce(1, merchant.address, parseUnits('3', 18), order.sessionId);
    await waitFor(
      () => payments(merchant, order.productId),
      (l) => l.length === 1,
      'not paid',
    );
    await waitFor(
      () => recorded(paid.hash),
      (rows) => rows.length === 1,
      'the watcher never recorded it',
    );
    const first = (await recorded(paid.hash))[0]!;

    // The chain that stays mines the same transaction later, in another block.
    await revert(before);
    await chain.mine(2);
    await broadcastSignedTransaction({ client: chain.publicClient, serialized: paid.serialized });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: paid.hash, timeout: 30_000 });
    expect(receipt.blockHash.toLowerCase()).not.toBe(first.block_hash);
    await chain.mine(1);

    const [payment] = await payments(merchant, order.productId);
    await waitFor(
      async () => hooks('resolved_payment.updated', payment!.id),
      (h) => h.length === 1,
      'the move was never announced',
    );
    const row = await service.deps.db.kysely
      .selectFrom('resolved_payments')
      .select(['block_number', 'block_hash', 'reversed_at'])
      .where('id', '=', payment!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      block_number: receipt.blockNumber.toString(),
      block_hash: receipt.blockHash.toLowerCase(),
      reversed_at: null,
    });
    expect((await payments(merchant, order.productId))[0]!.payment.exception_status).toBeNull();
    const to = `m-${merchant.merchantId}@example.com`;
    await inbox.waitFor((m) => m.to.includes(to) && m.subject.includes('Payment moved to another block'), {
      timeoutMs: 30_000,
    });
    // Its e-mail is claimed under the block it left, which only the move's webhook still names.
    const timeline = await timelineWithReorgMail(merchant, payment!.id);
    expect(timeline.find((e) => e.type === 'transfer_seen')).toMatchObject({
      tx_hash: paid.hash.toLowerCase(),
    });
    expect(timeline.some((e) => e.type === 'reversed')).toBe(false);
  });

  it('marks an unmatched transfer whose transaction left the chain reversed, cancels its unpaid refund, and opens it again when it is mined again', async () => {
    const merchant = await service.createMerchant();
    // The payer's session is open, for another amount.
    await shopOrder(merchant, '2.00', chain.deployment.shoppers[2]!.address);
    const before = await snapshot();
    // Nine BUSD from the session's payer: not its order's amount, so no order takes it.
    const stray = await prepareTokenTransfer({
      client: chain.publicClient,
      account: chain.deployment.shoppers[2]!.privateKey,
      token: busd,
      to: merchant.address as Address,
      amount: parseUnits('9', 18),
    });
    await broadcastSignedTransaction({ client: chain.publicClient, serialized: stray.serialized });
    await chain.publicClient.waitForTransactionReceipt({ hash: stray.hash, timeout: 30_000 });
    const listed = () =>
      service
        .request('GET', '/api/v1/unmatched_transfers', { headers: merchant.headers })
        .then((r) => r.body.unmatched_transfers as { id: string; status: string; tx_hash: string }[]);
    const [transfer] = await waitFor(listed, (l) => l.length === 1, 'the transfer was never recorded');
    expect(transfer!.tx_hash).toBe(stray.hash.toLowerCase());
    const requested = await service.request('POST', `/api/v1/unmatched_transfers/${transfer!.id}/refunds`, {
      headers: merchant.headers,
      json: { reason: 'Not ours', refund_address: chain.deployment.shoppers[2]!.address },
    });
    expect(requested.status, requested.text).toBe(201);
    expect(requested.body.refund.status).toBe('ready_to_pay');

    // The chain that stays never had the transfer: the merchant must not pay its refund.
    await revert(before);
    await chain.mine(3);
    const [reversed] = await waitFor(listed, (l) => l[0]?.status === 'reversed', 'never marked reversed');
    expect(reversed!.id).toBe(transfer!.id);
    const refund = await service.request('GET', `/api/v1/refunds/${requested.body.refund.id}`, {
      headers: merchant.headers,
    });
    expect(refund.body.refund.status).toBe('canceled');
    await waitFor(
      async () => hooks('unmatched_transfer.updated', transfer!.id),
      (h) => h.length === 1,
      'no webhook',
    );
    expect(JSON.parse(hooks('unmatched_transfer.updated', transfer!.id)[0]!.body)).toMatchObject({
      event: 'unmatched_transfer.updated',
      payload: { unmatched_transfer: { id: transfer!.id, status: 'reversed' } },
    });
    // Ticks later (the watcher has read a block mined after), nothing more.
    await chain.mine(1);
    await waitForBlockRead(service.deps.db.kysely, 97, await chain.publicClient.getBlockNumber());
    expect(hooks('unmatched_transfer.updated', transfer!.id)).toHaveLength(1);
    const reversedList = await service.request('GET', '/api/v1/unmatched_transfers?status=reversed', {
      headers: merchant.headers,
    });
    expect(reversedList.body.unmatched_transfers).toHaveLength(1);

    // Its transaction is mined again: the money did arrive, and the transfer is open again in its new block.
    await broadcastSignedTransaction({ client: chain.publicClient, serialized: stray.serialized });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: stray.hash, timeout: 30_000 });
    await chain.mine(1);
    await waitFor(listed, (l) => l[0]?.status === 'open', 'never open again');
    const row = await service.deps.db.kysely
      .selectFrom('unmatched_transfers')
      .select(['block_number', 'block_hash'])
      .where('id', '=', transfer!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      block_number: receipt.blockNumber.toString(),
      block_hash: receipt.blockHash.toLowerCase(),
    });
    await waitFor(
      async () => hooks('unmatched_transfer.updated', transfer!.id),
      (h) => h.length === 2,
      'the transfer mined again was never announced',
    );
    expect(await listed()).toHaveLength(1);
  });
});

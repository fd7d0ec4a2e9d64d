/**
 * What ops see of an unmatched transfer in the Temporal UI: its workflow stays open while the transfer's fate
 * may change, its `Summary` line and details say what became of it (attached and recorded by the order's
 * checkout, dismissed, refunded, given back open when its refund is canceled), and it completes once that
 * fate is sealed. Real server and worker, real Temporal, a local EVM chain, an SMTP inbox and a webhook
 * receiver.
 */
import { UnmatchedTransfer } from '@checkout/core';
import { unmatchedWorkflowId } from '@checkout/workflows';
import type { WorkflowHandle } from '@temporalio/client';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../support/chain.ts';
import { type ChainService, startChainService } from '../support/chainService.ts';
import { databaseUnavailable } from '../support/database.ts';
import type { TestMerchant, TestService } from '../support/service.ts';
import { shownOnceAt } from '../support/temporal.ts';
import { waitForSession } from '../support/waitFor.ts';

describe.skipIf(databaseUnavailable())('the fate of an unmatched transfer in the Temporal UI', () => {
  let chain: TestChain;
  let service: TestService;
  let busd: Address;
  let setup: ChainService | undefined;
  beforeAll(async () => {
    setup = await startChainService({
      CHECKOUT_GRACE_MINUTES: '5',
      CHECKOUT_SCAN_INTERVAL_MS: '100',
      UNMATCHED_EMAIL_INTERVAL_SECONDS: '1',
    });
    ({ chain, service, busd } = setup);
  });
  afterAll(() => setup?.stop());

  /** A merchant of its own with an open-amount product, and an order open on its wallet so it is watched. */
  const shop = async () => {
    const merchant = await service.createMerchant();
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Fate tea',
          email: `merchant-${merchant.merchantId}@example.com`,
          active: true,
          open_amount: true,
          send_webhook: false,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    const product = res.body.product as { id: string; slug: string };
    await open(product.slug, { dollar_amount: '40.00', sender_address: shopper(3) });
    return { merchant, product };
  };
  const open = async (slug: string, body: Record<string, unknown>) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', token_address: busd, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return { ...res.body.session, secret: res.body.client_secret } as {
      id: string;
      reference: string;
      secret: string;
    };
  };
  const shopper = (index: number) => chain.deployment.shoppers[index]!.address;

  /** The unmatched transfer `tx` became, once recorded, and its workflow. */
  const recorded = async (merchant: TestMerchant, tx: Hash) => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const res = await service.request('GET', '/api/v1/unmatched_transfers', { headers: merchant.headers });
      const found = (res.body.unmatched_transfers as unknown[])
        .map((u) => UnmatchedTransfer.parse(u))
        .find((u) => u.tx_hash === tx.toLowerCase());
      if (found) {
        const handle = service.deps.temporal!.client.workflow.getHandle(unmatchedWorkflowId(found.id));
        return { transfer: found, handle };
      }
      if (Date.now() > deadline) throw new Error(`${tx} was never recorded as unmatched`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const title = (amount: string, kind: string, index: number) => {
    const sender = shopper(index).toLowerCase();
    return `Unmatched transfer ${amount} BUSD · ${kind} · from ${sender.slice(0, 6)}…${sender.slice(-4)}`;
  };
  /** The workflow's result once it completed, and its state as Temporal describes it. */
  const completed = async (handle: WorkflowHandle) => {
    const result = (await handle.result()) as { status: string };
    return { result, state: (await handle.describe()).status.name };
  };

  it('an attached transfer is followed until its order’s checkout records it, then its workflow completes', async () => {
    const { merchant, product } = await shop();
    const attempt = await open(product.slug, { dollar_amount: '5.00', sender_address: shopper(2) });
    const closed = await service.request('POST', `/api/v1/checkout/sessions/${attempt.id}/close`, {
      headers: { 'X-Client-Secret': attempt.secret },
    });
    expect(closed.status, closed.text).toBe(200);
    const tx = await chain.transfer(2, busd, merchant.address as Address, parseUnits('5', 18), {
      reference: attempt.reference,
    });
    const { transfer, handle } = await recorded(merchant, tx);
    expect(await (await handle.describe()).staticSummary()).toBe(title('5', 'closed attempt', 2));
    const waiting = await shownOnceAt(handle, 'open');
    expect(waiting.summary).toBe(`${title('5', 'closed attempt', 2)} · open`);
    expect(waiting.details).toMatch(
      /^- \*\*Open\*\*: the merchant may attach it to an order, refund it or dismiss it\n- followed until \S+Z/,
    );

    const res = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
      headers: merchant.headers,
      json: { dollar_amount: '5.00' },
    });
    const expectedId = res.body.expected_payment.id as string;
    const order = await open(product.slug, { expected_payment_id: expectedId, sender_address: shopper(4) });
    const attached = await service.request('POST', `/api/v1/unmatched_transfers/${transfer.id}/attach`, {
      headers: merchant.headers,
      json: { expected_payment_id: expectedId },
    });
    expect(attached.status, attached.text).toBe(200);
    const paid = await waitForSession(service, order.id, ['resolved']);
    const shown = await shownOnceAt(handle, 'attached', 60_000);
    expect(shown.details).toBe(
      `- **Attached** to expected payment \`${expectedId}\`: its checkout recorded it as resolved payment \`${paid.resolved_payment_id}\``,
    );
    expect(await completed(handle)).toEqual({
      result: expect.objectContaining({ status: 'attached' }),
      state: 'COMPLETED',
    });
  });

  it('a dismissed transfer says so, and its workflow completes', async () => {
    const { merchant } = await shop();
    const tx = await chain.transfer(1, busd, merchant.address as Address, parseUnits('4.2', 18));
    const { transfer, handle } = await recorded(merchant, tx);
    await shownOnceAt(handle, 'open');
    const dismissed = await service.request('POST', `/api/v1/unmatched_transfers/${transfer.id}/dismiss`, {
      headers: merchant.headers,
      json: { note: 'A tip, kept with thanks' },
    });
    expect(dismissed.status, dismissed.text).toBe(200);
    const shown = await shownOnceAt(handle, 'dismissed');
    expect(shown.summary).toBe(`${title('4.2', transfer.kind.replace(/_/g, ' '), 1)} · dismissed`);
    expect(shown.details).toBe('- **Dismissed** by the merchant');
    expect(await completed(handle)).toEqual({
      result: expect.objectContaining({ status: 'dismissed' }),
      state: 'COMPLETED',
    });
  });

  it('a refunded transfer shows its refund, open again when the refund is canceled, and completes once a refund is confirmed', async () => {
    const { merchant } = await shop();
    const tx = await chain.transfer(0, busd, merchant.address as Address, parseUnits('3.3', 18));
    const { transfer, handle } = await recorded(merchant, tx);
    await shownOnceAt(handle, 'open');
    const refundOf = (json: Record<string, unknown>, key: string) =>
      service.request('POST', `/api/v1/unmatched_transfers/${transfer.id}/refunds`, {
        headers: { ...merchant.headers, 'idempotency-key': key },
        json: { reason: 'Sent to the wrong shop', ...json },
      });

    // Asked of the customer by e-mail, then canceled: the transfer is open again, and still followed.
    const first = await refundOf({ email: 'customer@example.com' }, `first-${transfer.id}`);
    expect(first.status, first.text).toBe(201);
    const asking = await shownOnceAt(handle, 'refund awaiting address');
    expect(asking.details).toContain(`refund \`${first.body.refund.id}\` is awaiting address`);
    const canceled = await service.request('POST', `/api/v1/refunds/${first.body.refund.id}/cancel`, {
      headers: merchant.headers,
      json: { reason: 'The customer asked for store credit' },
    });
    expect(canceled.status, canceled.text).toBe(200);
    await shownOnceAt(handle, 'open');
    expect((await handle.describe()).status.name).toBe('RUNNING');

    // Refunded to an address the merchant has, paid from the wallet and confirmed: sealed.
    const second = await refundOf({ refund_address: shopper(0) }, `second-${transfer.id}`);
    expect(second.status, second.text).toBe(201);
    await shownOnceAt(handle, 'refund ready to pay');
    const pay = await service.request('POST', `/sandbox/refunds/${second.body.refund.id}/simulate`, {
      headers: merchant.headers,
      json: { outcome: 'paid' },
    });
    expect(pay.status, pay.text).toBe(200);
    await chain.mine(3);
    const shown = await shownOnceAt(handle, 'refunded', 60_000);
    expect(shown.details).toBe(`- **Refunded**: refund \`${second.body.refund.id}\` is confirmed`);
    expect(await completed(handle)).toEqual({
      result: expect.objectContaining({ status: 'refunded' }),
      state: 'COMPLETED',
    });
  });
});

/**
 * E-mails against an SMTP server that misbehaves at the boundary, through the real checkout (chain, worker,
 * Temporal retries): a server that reads a whole message and drops the connection before its final 250
 * gets each message at most twice (the outcome is unknown: one retry, after a pause, counted in
 * `mail_send_outcome_unknown_total`), then records it as possibly not arrived, for the merchant to see
 * and resend; a server that refuses with 451 keeps being retried until it takes the
 * message, which then arrives once.
 */
import type { UndeliveredEmail } from '@checkout/core';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import {
  type ReadMessage,
  type ScriptedSmtp,
  type SmtpAnswer,
  startScriptedSmtp,
} from '../support/scriptedSmtp.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor } from '../support/waitFor.ts';

describe.skipIf(databaseUnavailable())('e-mails when the SMTP server misbehaves', () => {
  let chain: TestChain;
  let service: TestService;
  let smtp: ScriptedSmtp;
  let merchant: TestMerchant;
  let busd: Address;
  // How the server answers a message, given the copies of it read before.
  let plan: (earlier: ReadMessage[], messageId: string) => SmtpAnswer = () => 'accept';

  beforeAll(async () => {
    [chain, smtp] = await Promise.all([
      startTestChain(),
      startScriptedSmtp((messageId, earlier) =>
        plan(
          earlier.filter((m) => m.messageId === messageId),
          messageId,
        ),
      ),
    ]);
    busd = chain.deployment.tokens.BUSD.address;
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        SMTP_URL: smtp.url,
        SMTP_UNKNOWN_OUTCOME_RETRY_SECONDS: '1',
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_SCAN_INTERVAL_MS: '200',
      },
    });
    merchant = await service.createMerchant();
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await Promise.all([chain?.stop(), smtp?.close()]);
  });

  /** A paid checkout of a product sending a receipt; resolves with the resolved payment's id and its hash. */
  async function pay(shopper: number): Promise<{ paymentId: string; tx: string }> {
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Beans',
          email: 'merchant@example.com',
          active: true,
          open_amount: true,
          send_email: true,
          email_body: 'Thanks!',
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    const opened = await service.request('POST', `/api/v1/checkout/${product.body.product.slug}/sessions`, {
      json: {
        dollar_amount: '2.00',
        email: `shopper${shopper}@example.com`,
        sender_address: chain.deployment.shoppers[shopper]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const tx = await chain.transfer(shopper, busd, merchant.address as Address, parseUnits('2', 18));
    const submitted = await service.request(
      'POST',
      `/api/v1/checkout/sessions/${opened.body.session.id}/transactions`,
      { json: { tx_hash: tx } },
    );
    expect(submitted.status, submitted.text).toBe(200);
    return { paymentId: submitted.body.session.resolved_payment_id as string, tx };
  }

  const copiesOf = (paymentId: string) => {
    const counts = new Map<string, number>();
    for (const m of smtp.messages.filter((x) => x.messageId.includes(paymentId))) {
      counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
    }
    return counts;
  };

  /**
   * Once both e-mails of the payment are done with (their claims closed: sent, or given up after the one
   * retry of an unknown outcome), no copy can follow; resolves with how many outcomes each left unknown.
   */
  const bothDone = (paymentId: string) =>
    waitFor(
      () =>
        service.deps.db.kysely
          .selectFrom('effect_claims')
          .select(['key', 'status', 'unknown_outcomes'])
          .where('key', 'in', [`email:customer_receipt:${paymentId}`, `email:merchant_notice:${paymentId}`])
          .orderBy('key')
          .execute(),
      (claims) => claims.length === 2 && claims.every((c) => c.status === 'done'),
      "the payment's e-mails were never done with",
    );

  /** The wallet's undelivered e-mails of a payment, once `done` holds for them. */
  const undelivered = (paymentId: string, done: (emails: UndeliveredEmail[]) => boolean) =>
    waitFor(
      async () => {
        const res = await service.request(
          'GET',
          `/api/v1/undelivered_emails?resolved_payment_id=${paymentId}`,
          { headers: merchant.headers },
        );
        expect(res.status, res.text).toBe(200);
        return res.body.undelivered_emails as UndeliveredEmail[];
      },
      done,
      "the payment's undelivered e-mails",
    );

  it('sends a message the server took without a final answer at most twice, counts it, and lets the merchant resend it', async () => {
    // Every message is read whole, then the connection is dropped before the 250.
    plan = () => 'drop';
    const { paymentId } = await pay(0);
    // Each e-mail is recorded as possibly not arrived once its one retry's outcome is unknown too: it is
    // done then, and sent no more by itself.
    const recorded = await undelivered(paymentId, (emails) => emails.length === 2);
    expect(recorded.map((e) => [e.kind, e.recipient, e.status]).sort()).toEqual([
      ['customer_receipt', 'customer', 'may_not_have_arrived'],
      ['merchant_notice', 'merchant', 'may_not_have_arrived'],
    ]);
    expect(recorded[0]!.message).toMatch(/may not have arrived/);
    // The receipt and the merchant's notice each arrived twice: the first send and its one retry.
    const copies = copiesOf(paymentId);
    expect(copies.size).toBe(2);
    expect([...copies.values()]).toEqual([2, 2]);
    const metrics = await service.request('GET', '/metrics');
    expect(metrics.text).toMatch(/^mail_send_outcome_unknown_total 4$/m);

    // The server recovers; the merchant resends its notice: it arrives once more, and the record says so.
    plan = () => 'accept';
    const notice = recorded.find((e) => e.kind === 'merchant_notice')!;
    const resent = await service.request('POST', `/api/v1/undelivered_emails/${notice.id}/resend`, {
      headers: merchant.headers,
    });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.undelivered_email).toMatchObject({ id: notice.id, status: 'resend_queued' });
    const after = await undelivered(paymentId, (emails) =>
      emails.some((e) => e.id === notice.id && e.status === 'resent'),
    );
    expect(after.find((e) => e.id === notice.id)).toMatchObject({ resends: 1 });
    const merchantCopies = smtp.messages.filter(
      (m) => m.messageId.includes(paymentId) && m.messageId.includes('merchant'),
    );
    expect(merchantCopies.map((m) => m.answer)).toEqual(['drop', 'drop', 'accept']);
    // The receipt was not resent.
    expect(after.find((e) => e.kind === 'customer_receipt')).toMatchObject({
      status: 'may_not_have_arrived',
      resends: 0,
    });
  }, 120_000);

  it('keeps retrying a message the server refuses with 451, and delivers it once taken', async () => {
    // Two refusals of each message, then the server takes it.
    plan = (earlier) => (earlier.length < 2 ? 'refuse' : 'accept');
    const { paymentId } = await pay(1);
    const taken = () =>
      smtp.messages.filter((m) => m.messageId.includes(paymentId) && m.answer === 'accept').length;
    expect((await bothDone(paymentId)).map((c) => c.unknown_outcomes)).toEqual([0, 0]);
    expect(taken()).toBe(2);
    expect([...copiesOf(paymentId).values()]).toEqual([3, 3]);
  }, 120_000);

  it("records the merchant's payment reversed notice as possibly not arrived when its outcome stays unknown", async () => {
    // The receipt and the notice of the payment arrive; every reorganisation notice is dropped unanswered.
    plan = (_earlier, messageId) => (messageId.includes('.reorg@') ? 'drop' : 'accept');
    const snapshot = await chain.publicClient.request({ method: 'evm_snapshot' as 'eth_chainId' });
    const { paymentId, tx } = await pay(2);
    await waitFor(
      () =>
        service.deps.db.kysely
          .selectFrom('chain_transfers')
          .select('tx_hash')
          .where('tx_hash', '=', tx.toLowerCase())
          .execute(),
      (rows) => rows.length > 0,
      'the watcher never recorded the transfer',
    );
    await chain.publicClient.request({
      method: 'evm_revert' as 'eth_chainId',
      params: [snapshot] as unknown as undefined,
    });
    await chain.mine(3);
    const [notice] = await undelivered(paymentId, (emails) => emails.length === 1);
    expect(notice).toMatchObject({
      kind: 'reorg_reversed',
      recipient: 'merchant',
      resolved_payment_id: paymentId,
      status: 'may_not_have_arrived',
    });
    expect(notice!.subject).toMatch(/Payment reversed/);
    expect(notice!.message).toMatch(/may not have arrived/);
    const reorgCopies = smtp.messages.filter((m) => m.messageId.includes(paymentId) && m.answer === 'drop');
    expect(reorgCopies).toHaveLength(2);
  }, 120_000);
});

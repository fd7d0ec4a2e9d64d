/**
 * E-mails against an SMTP server that misbehaves at the boundary, through the real checkout (chain, worker,
 * Temporal retries): a server that reads a whole message and drops the connection before its final 250
 * gets each message at most twice (the outcome is unknown: one retry, after a pause, counted in
 * `mail_send_outcome_unknown_total`); a server that refuses with 451 keeps being retried until it takes the
 * message, which then arrives once.
 */
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(databaseUnavailable())('e-mails when the SMTP server misbehaves', () => {
  let chain: TestChain;
  let service: TestService;
  let smtp: ScriptedSmtp;
  let merchant: TestMerchant;
  let busd: Address;
  // How the server answers a message, given the copies of it read before.
  let plan: (earlier: ReadMessage[]) => SmtpAnswer = () => 'accept';

  beforeAll(async () => {
    [chain, smtp] = await Promise.all([
      startTestChain(),
      startScriptedSmtp((messageId, earlier) => plan(earlier.filter((m) => m.messageId === messageId))),
    ]);
    busd = chain.deployment.tokens.BUSD.address;
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        SMTP_URL: smtp.url,
        SMTP_UNKNOWN_OUTCOME_RETRY_SECONDS: '1',
        CHAIN_POLL_INTERVAL_MS: '100',
      },
    });
    merchant = await service.createMerchant();
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await Promise.all([chain?.stop(), smtp?.close()]);
  });

  /** A paid checkout of a product sending a receipt; resolves with the resolved payment's id. */
  async function pay(shopper: number): Promise<string> {
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
    return submitted.body.session.resolved_payment_id as string;
  }

  const copiesOf = (paymentId: string) => {
    const counts = new Map<string, number>();
    for (const m of smtp.messages.filter((x) => x.messageId.includes(paymentId))) {
      counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
    }
    return counts;
  };

  async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(smtp.messages)}`);
      await sleep(100);
    }
  }

  it('sends a message the server took without a final answer at most twice, and counts it', async () => {
    // Every message is read whole, then the connection is dropped before the 250.
    plan = () => 'drop';
    const paymentId = await pay(0);
    // The receipt and the merchant's notice each arrive twice: the first send and its one retry.
    await waitFor(() => [...copiesOf(paymentId).values()].filter((n) => n >= 2).length === 2, 60_000);
    // A quiet spell in which a third copy would show up (the retries were 1 s apart).
    await sleep(6_000);
    const copies = copiesOf(paymentId);
    expect(copies.size).toBe(2);
    expect([...copies.values()]).toEqual([2, 2]);
    const metrics = await service.request('GET', '/metrics');
    expect(metrics.text).toMatch(/^mail_send_outcome_unknown_total 4$/m);
  }, 120_000);

  it('keeps retrying a message the server refuses with 451, and delivers it once taken', async () => {
    // Two refusals of each message, then the server takes it.
    plan = (earlier) => (earlier.length < 2 ? 'refuse' : 'accept');
    const paymentId = await pay(1);
    const taken = () =>
      smtp.messages.filter((m) => m.messageId.includes(paymentId) && m.answer === 'accept').length;
    await waitFor(() => taken() === 2, 60_000);
    await sleep(3_000);
    expect(taken()).toBe(2);
    expect([...copiesOf(paymentId).values()]).toEqual([3, 3]);
  }, 120_000);
});

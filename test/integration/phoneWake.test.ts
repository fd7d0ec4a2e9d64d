/**
 * The first phone payment after a quiet spell is followed as closely as the next ones: a session a phone may
 * pay (no payer's wallet named) wakes the chain's watcher out of its sleep as it opens, and the watcher then
 * follows the chain block by block. The scan interval here is the longest allowed (15 s), and the payment must
 * be resolved before the watcher's sleep would have ended: an order of events read from the watcher's own
 * history in Temporal, not a stopwatch.
 */

import { chainWatcherWorkflowId } from '@checkout/workflows';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor, waitForSession } from '../support/waitFor.ts';

const scanIntervalMs = 15_000;

describe.skipIf(databaseUnavailable())('a phone session wakes the chain watcher', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let busd: Address;

  beforeAll(async () => {
    chain = await startTestChain();
    busd = chain.deployment.tokens.BUSD.address;
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_SCAN_INTERVAL_MS: String(scanIntervalMs),
      },
    });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  /** The watcher's history: when each of its timers was started and for how long, and its signals. */
  const watcherHistory = async () => {
    const handle = service.deps.temporal!.client.workflow.getHandle(
      chainWatcherWorkflowId(97, service.deps.config.temporal.taskQueue),
    );
    const history = await handle.fetchHistory();
    const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
      Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
    const events = history.events ?? [];
    return {
      timers: events
        .filter((e) => e.timerStartedEventAttributes)
        .map((e) => ({
          at: ms(e.eventTime),
          fireAt: ms(e.eventTime) + ms(e.timerStartedEventAttributes!.startToFireTimeout),
        })),
      signals: events
        .filter((e) => e.workflowExecutionSignaledEventAttributes)
        .map((e) => ({ at: ms(e.eventTime), name: e.workflowExecutionSignaledEventAttributes!.signalName })),
    };
  };

  it('resolves the first phone payment after a start before the watcher would have woken by itself', async () => {
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Quiet shop',
          email: 'merchant@example.com',
          active: true,
          send_webhook: false,
          send_email: false,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    // The watcher has ticked and sleeps out its interval: no session is open.
    const asleep = await waitFor(
      () => watcherHistory(),
      (h) => h.timers.some((t) => t.fireAt - t.at === scanIntervalMs),
      'the watcher never slept its interval',
    );
    const sleeping = asleep.timers.findLast((t) => t.fireAt - t.at === scanIntervalMs)!;

    const expected = await service.request(
      'POST',
      `/api/v1/products/${product.body.product.id}/expected_payments`,
      {
        headers: merchant.headers,
        json: { dollar_amount: '4.00' },
      },
    );
    expect(expected.status, expected.text).toBe(200);
    const opened = await service.request('POST', `/api/v1/checkout/${product.body.product.slug}/sessions`, {
      json: {
        expected_payment_id: expected.body.expected_payment.id,
        email: 'phone@example.com',
        sender_address: null,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const session = opened.body.session as { id: string; expected_token_amount: string };

    // A phone pays the exact amount; nobody submits the hash.
    const tx = await chain.transfer(
      2,
      busd,
      merchant.address as Address,
      parseUnits(session.expected_token_amount, 18),
    );
    const done = await waitForSession(service, session.id, ['resolved']);
    expect(done.tx_hash).toBe(tx.toLowerCase());
    const payment = await service.deps.db.kysely
      .selectFrom('resolved_payments')
      .select('created_at')
      .where('id', '=', done.resolved_payment_id!)
      .executeTakeFirstOrThrow();

    const after = await watcherHistory();
    const woken = after.signals.find((s) => s.name === 'payerlessSessionOpened' && s.at >= sleeping.at);
    expect(woken, 'the session did not wake the watcher').toBeDefined();
    // Resolved while the watcher's sleep still had time to run: only the wake-up could have found it.
    const sleepOfSignal = after.timers.findLast(
      (t) => t.at <= woken!.at && t.fireAt - t.at === scanIntervalMs,
    )!;
    expect(payment.created_at.getTime()).toBeLessThan(sleepOfSignal.fireAt);
  });
});

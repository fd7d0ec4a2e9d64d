/**
 * `quoteLifecycle` on the time-skipping test server with the real quote activities over PGlite and a
 * local chain: the expiry timer (an hour, skipped), payouts started by the execute signal, a lost signal
 * caught by the timer, a bounced payout resent on the user's request, and tokens no payout uses (sent to
 * an expired quote, an overpaid execute's excess, another transfer) returned to their senders once. The
 * quote activities read what reached a deposit address from the chain watcher's record, which these tests
 * write as the watcher does (the watcher itself runs in the integration tests).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createChainClients, devDeployer, erc20Abi, readTransfers } from '@checkout/chain';
import {
  createApiKey,
  createSecretBox,
  type Db,
  insertOfframps,
  insertPaymentDetail,
  insertQuote,
  insertUser,
  markQuoteExecuted,
  openDatabase,
  putAccountWebhookEndpoint,
  recordChainProgress,
  requestBouncedOfframpAction,
} from '@checkout/db';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { getBlockNumber, getTransactionCount } from 'viem/actions';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import { startTestChain, type TestChain } from '../../../test/support/chain.ts';
import { createTimeSkippingEnv, shownStatus, startTestWorker } from '../../../test/support/temporal.ts';
import { startWebhookEndpoint, type WebhookEndpoint } from '../../../test/support/webhookEndpoint.ts';
import { createWebhookActivities } from '../webhookDelivery/activities.ts';
import { createQuoteActivities } from './activities.ts';
import {
  offrampActionSignal,
  type QuoteActivities,
  type QuoteLifecycleInput,
  quoteExecutedSignal,
  quoteExpiredMessage,
  quoteWorkflowId,
} from './shared.ts';
import { quoteLifecycle } from './workflow.ts';

const hour = 3_600_000;
const secrets = createSecretBox(randomBytes(32));
const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`);

let db: Db;
let chain: TestChain;
let env: TestWorkflowEnvironment;
let endpoint: WebhookEndpoint;
let merchantId: string;
let userId: string;
// A fresh test server and worker per test: each test's clock starts at now, and webhook children abandoned
// by one test never hold the next one's time back.
let w: Awaited<ReturnType<typeof worker>>;
let running: Promise<void>;

async function approvedDetail(): Promise<string> {
  const row = await insertPaymentDetail(db.kysely, {
    id: randomUUID(),
    user_id: userId,
    merchant_id: merchantId,
    currency: 'usd',
    rails: null,
    beneficiary_type: 'business',
    status: 'approved',
    details_ciphertext: secrets.seal('{}'),
  });
  return row.id;
}

/**
 * An open quote expiring in an hour with one initiated offramp per amount (USD, rate 1, fee 1); in a
 * token no one sends unless `token` is given (the chain's USDC).
 */
async function quoteWith(amounts: string[], token: Address = randomAddress()) {
  const detail = await approvedDetail();
  const quote = await insertQuote(db.kysely, {
    id: randomUUID(),
    user_id: userId,
    merchant_id: merchantId,
    deposit_token: 'usdc',
    deposit_token_chain: 'binance-smart-chain',
    chain_id: 97,
    network: 'testnet',
    token_address: token,
    token_decimals: 6,
    deposit_index: Math.floor(Math.random() * 1e9),
    deposit_address: randomAddress(),
    // An hour from the server's clock, which earlier tests have moved ahead of this machine's.
    expires_at: new Date((await env.currentTimeMs()) + hour),
  });
  const offramps = await insertOfframps(
    db.kysely,
    amounts.map((amount) => ({
      id: randomUUID(),
      quote_id: quote.id,
      user_id: userId,
      merchant_id: merchantId,
      payment_detail_id: detail,
      status: 'initiated' as const,
      status_message: null,
      destination_amount: amount,
      destination_currency: 'usd',
      rails: 'local',
      reference: null,
      rate: '1',
      fee: '1.00',
      token_amount: String((Number(amount) + 1) * 1e6),
      token_fee: '1000000',
      supporting_document_url: null,
      metadata: null,
    })),
  );
  const input: QuoteLifecycleInput = {
    quoteId: quote.id,
    merchantId,
    userId,
    expiresAt: quote.expires_at.toISOString(),
  };
  return { quote, offramps, input };
}

/** Marks the quote executed by `txId` (a made-up one by default) that brought `received` base units. */
const execute = async (
  quoteId: string,
  funding: { txId?: string; received?: bigint; sender?: string } = {},
) => {
  const offramps = await offrampRows(quoteId);
  const total = offramps.reduce((sum, o) => sum + BigInt(o.token_amount), 0n);
  return markQuoteExecuted(
    db.kysely,
    quoteId,
    {
      tx_id: funding.txId ?? `0x${randomBytes(32).toString('hex')}`,
      blockchain: 'binance-smart-chain',
      network: 'testnet',
    },
    String(funding.received ?? total),
    funding.sender ?? randomAddress(),
  );
};

const quoteRow = (id: string) =>
  db.kysely.selectFrom('quotes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const offrampRows = (quoteId: string) =>
  db.kysely
    .selectFrom('offramps')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .orderBy('created_at')
    .execute();
const offrampUpdates = async (offrampId: string) => {
  const rows = await db.kysely
    .selectFrom('webhook_deliveries')
    .select(['payload', 'subject_id'])
    .where('event_type', '=', 'offramp_update')
    .where('subject_id', 'like', `${offrampId}:%`)
    .execute();
  // Subjects are `<offramp id>:status:<version>`: one per change, in version order.
  const version = (subject: string) => Number(subject.split(':').pop());
  return rows
    .sort((a, b) => version(a.subject_id) - version(b.subject_id))
    .map(
      (r) => (JSON.parse(secrets.open(r.payload)) as { payload: { offramp: { status: string } } }).payload,
    );
};

/** The real quote activities: the local chain, its funded dev account as the treasury. */
function quoteActivities(): QuoteActivities {
  return createQuoteActivities({
    db,
    secrets,
    chains: createChainClients([
      { chainId: 97, name: 'dev chain', rpcUrls: [chain.chain.rpcUrl], confirmations: 1 },
    ]),
    ramps: { payoutSandboxDelayMs: 60_000, treasuryPrivateKey: devDeployer.privateKey },
  });
}

/** A worker with the real quote and webhook activities (or `quote` in their place) on its own task queue. */
async function worker(quote: QuoteActivities = quoteActivities()) {
  return startTestWorker({
    connection: env.nativeConnection,
    activities: {
      ...quote,
      ...createWebhookActivities({ db, secrets, webhooks: { allowPrivateAddresses: true } }),
    },
  });
}

/** Waits (bounded) until the workflow's history shows its expiry timer. */
async function waitForTimer(workflowId: string) {
  const handle = env.client.workflow.getHandle(workflowId);
  for (let i = 0; i < 100; i++) {
    const history = await handle.fetchHistory();
    if (history.events?.some((e) => e.timerStartedEventAttributes)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the workflow never started its expiry timer');
}

beforeEach(async () => {
  env = await createTimeSkippingEnv();
  w = await worker();
  running = w.worker.run();
});

afterEach(async () => {
  if (w?.worker.getState() === 'RUNNING') w.worker.shutdown();
  await running;
  await env?.teardown();
});

beforeAll(async () => {
  [db, chain] = await Promise.all([openDatabase({ kind: 'pglite-memory' }), startTestChain()]);
  endpoint = await startWebhookEndpoint();
  merchantId = (await createApiKey(db.kysely, { address: randomAddress() })).merchantId;
  await putAccountWebhookEndpoint(db.kysely, merchantId, endpoint.url);
  const user = await insertUser(db.kysely, {
    id: randomUUID(),
    merchant_id: merchantId,
    beneficiary_type: 'business',
    first_name: null,
    last_name: null,
    company_name: 'Acme',
    email: 'a@example.com',
    date_of_birth: '2001-02-01',
    address_line1: '1 Main St',
    address_line2: null,
    city: 'Berlin',
    state: 'Berlin',
    postcode: '10117',
    country: 'DE',
    nationality: 'DE',
    phone: '+447515772386',
    ssn_ciphertext: secrets.seal('HRB 1'),
    website: null,
    source_of_funds: null,
    business_activity: null,
    business_description: null,
    kyc: {
      general: { status: 'approved', moderation_comment: null },
      eur: { status: 'approved', swift_status: 'approved' },
      usd: { status: 'approved', swift_status: 'approved' },
      ars: { status: 'approved', swift_status: 'approved' },
    },
  });
  userId = user.id;
});

afterAll(async () => {
  await endpoint?.close();
  await chain?.stop();
  await db?.close();
});

describe('quoteLifecycle on the time-skipping server', () => {
  it('expires an unexecuted quote at its expiry and fails its offramps, with offramp_update', async () => {
    const { quote, offramps, input } = await quoteWith(['10.00', '20.00']);
    const result = await (async () => {
      const handle = await env.client.workflow.start(quoteLifecycle, {
        workflowId: quoteWorkflowId(quote.id),
        taskQueue: w.taskQueue,
        args: [input],
      });
      // The timer is running and nothing has expired yet: the hour is still ahead.
      await waitForTimer(handle.workflowId);
      expect((await quoteRow(quote.id)).status).toBe('open');
      expect((await offrampRows(quote.id)).map((o) => o.status)).toEqual(['initiated', 'initiated']);
      return handle.result();
    })();

    expect(result).toEqual({
      quoteId: quote.id,
      status: 'expired',
      offramps: offramps.map((o) => ({ id: o.id, status: 'failed' })),
    });
    expect((await quoteRow(quote.id)).status).toBe('expired');
    for (const row of await offrampRows(quote.id)) {
      expect(row).toMatchObject({
        status: 'failed',
        status_message: quoteExpiredMessage,
        refund_status: null,
      });
      const updates = await offrampUpdates(row.id);
      expect(updates.map((u) => u.offramp.status)).toEqual(['failed']);
    }
  });

  it('pays out once executed before the expiry, and never expires the quote', async () => {
    const { quote, offramps, input } = await quoteWith(['10.00', '5.00']);
    const result = await (async () => {
      const handle = await env.client.workflow.start(quoteLifecycle, {
        workflowId: quoteWorkflowId(quote.id),
        taskQueue: w.taskQueue,
        args: [input],
      });
      await waitForTimer(handle.workflowId);
      await execute(quote.id);
      await handle.signal(quoteExecutedSignal);
      return handle.result();
    })();
    expect(result.status).toBe('completed');
    expect(result.offramps).toEqual(offramps.map((o) => ({ id: o.id, status: 'fiat_sent' })));
    expect((await quoteRow(quote.id)).status).toBe('completed');
    // The Temporal UI shows the completed quote and each offramp's outcome (no memo here: no title).
    const shown = await shownStatus(env.client.workflow.getHandle(quoteWorkflowId(quote.id)));
    expect(shown.summary).toBe('Offramp quote · completed');
    expect(shown.details).toBe(
      ['- **Completed**', ...offramps.map((o) => `- offramp \`${o.id}\`: fiat sent`)].join('\n'),
    );
    for (const o of offramps) {
      expect((await offrampUpdates(o.id)).map((u) => u.offramp.status)).toEqual([
        'pending_internal_assessment',
        'sending_fiat',
        'fiat_sent',
      ]);
    }
  });

  it('pays out an executed quote whose signal was lost when the expiry timer fires', async () => {
    const { quote, offramps, input } = await quoteWith(['12.00']);
    await execute(quote.id);
    const result = await (async () => {
      const handle = await env.client.workflow.start(quoteLifecycle, {
        workflowId: quoteWorkflowId(quote.id),
        taskQueue: w.taskQueue,
        args: [input],
      });
      return handle.result();
    })();
    expect(result).toEqual({
      quoteId: quote.id,
      status: 'completed',
      offramps: [{ id: offramps[0]!.id, status: 'fiat_sent' }],
    });
  });

  it('holds a bounced payout until the user asks for a resend, then pays it to the new detail', async () => {
    const { quote, offramps, input } = await quoteWith(['7.13']);
    const offrampId = offramps[0]!.id;
    await execute(quote.id);
    const result = await (async () => {
      const handle = await env.client.workflow.start(quoteLifecycle, {
        workflowId: quoteWorkflowId(quote.id),
        taskQueue: w.taskQueue,
        args: [{ ...input, executed: true }],
      });
      // The hour-long settlement delays are skipped; the bounce then waits for the user, however long.
      for (let i = 0; i < 300; i++) {
        const [row] = await offrampRows(quote.id);
        if (row?.status === 'bounced') break;
        await env.sleep('1 minute');
      }
      const [bounced] = await offrampRows(quote.id);
      expect(bounced).toMatchObject({ status: 'bounced', payout_attempts: 1 });
      expect(bounced?.status_message).toContain('Resend it to another approved payment detail');
      await env.sleep('30 days');
      expect((await offrampRows(quote.id))[0]?.status).toBe('bounced');
      expect((await quoteRow(quote.id)).status).toBe('executed');

      const newDetail = await approvedDetail();
      const requested = await requestBouncedOfframpAction(db.kysely, offrampId, {
        kind: 'resend',
        paymentDetailId: newDetail,
      });
      expect(requested?.bounce_action).toBe('resend');
      await handle.signal(offrampActionSignal, { offrampId });
      return handle.result();
    })();
    expect(result).toMatchObject({ status: 'completed', offramps: [{ id: offrampId, status: 'fiat_sent' }] });
    const [row] = await offrampRows(quote.id);
    expect(row).toMatchObject({ status: 'fiat_sent', payout_attempts: 2, bounce_action: null });
    expect((await offrampUpdates(offrampId)).map((u) => u.offramp.status)).toEqual([
      'pending_internal_assessment',
      'sending_fiat',
      'bounced',
      'sending_fiat',
      'fiat_sent',
    ]);
  });
});

const usdc = () => chain.deployment.tokens.USDC.address;
const balanceOf = (address: string) =>
  chain.publicClient.readContract({
    address: usdc(),
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address as Address],
  });
const treasuryNonce = () =>
  getTransactionCount(chain.publicClient, { address: devDeployer.address, blockTag: 'latest' });
const refundRows = (quoteId: string) =>
  db.kysely
    .selectFrom('quote_refunds')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .orderBy('created_at')
    .execute();
/** The `quote_update` webhooks of a quote, as `<refund status>` per refund in the order queued. */
const quoteUpdates = async (quoteId: string) =>
  (
    await db.kysely
      .selectFrom('webhook_deliveries')
      .select(['subject_id', 'payload'])
      .where('event_type', '=', 'quote_update')
      .where('subject_id', 'like', `${quoteId}:%`)
      .orderBy('created_at')
      .execute()
  ).map((r) => ({
    subject: r.subject_id,
    body: JSON.parse(secrets.open(r.payload)) as {
      event: string;
      payload: { quote: { refunds: unknown[] } };
    },
  }));
const shopper = (index: number) => chain.deployment.shoppers[index]!.address;
/** Records the chain's USDC transfers into `address` as the chain's watcher does, up to the head. */
const watcherRecords = async (address: string) => {
  const head = await getBlockNumber(chain.publicClient, { cacheTime: 0 });
  const transfers = await readTransfers({
    client: chain.publicClient,
    tokens: [usdc()],
    to: [address as Address],
    fromBlock: 0n,
    toBlock: head,
  });
  await recordChainProgress(db.kysely, {
    chainId: 97,
    transfers,
    covered: new Map([[address.toLowerCase(), 0n]]),
    dropped: [],
    position: { nextBlock: head + 1n, lastBlockHash: null, headBlock: head },
  });
};

describe('tokens no payout uses, on the time-skipping server and a local chain', () => {
  it('returns what reached an expired quote to each sender once, also when the quote is started again', async () => {
    const { quote, offramps, input } = await quoteWith(['10.00'], usdc());
    const [a, b] = [shopper(1), shopper(2)];
    const [aBefore, bBefore] = [await balanceOf(a), await balanceOf(b)];
    // Two senders fund the quote but nobody executes it.
    const fromA = await chain.transfer(1, usdc(), quote.deposit_address as Address, 11_000_000n);
    const fromB = await chain.transfer(2, usdc(), quote.deposit_address as Address, 2_500_000n);
    expect(await balanceOf(a)).toBe(aBefore - 11_000_000n);
    await watcherRecords(quote.deposit_address);
    const nonceBefore = await treasuryNonce();

    const run = async () => {
      const handle = await env.client.workflow.start(quoteLifecycle, {
        workflowId: quoteWorkflowId(quote.id),
        taskQueue: w.taskQueue,
        args: [input],
      });
      return handle.result();
    };
    expect(await run()).toEqual({
      quoteId: quote.id,
      status: 'expired',
      offramps: [{ id: offramps[0]!.id, status: 'failed' }],
    });
    const refunds = await refundRows(quote.id);
    expect(refunds.map((r) => [r.reason, r.status, r.address, r.amount, r.deposit_tx_hash])).toEqual([
      ['quote_expired', 'sent', a, '11000000', fromA.toLowerCase()],
      ['quote_expired', 'sent', b, '2500000', fromB.toLowerCase()],
    ]);
    expect(await balanceOf(a)).toBe(aBefore);
    expect(await balanceOf(b)).toBe(bBefore);
    expect(await treasuryNonce()).toBe(nonceBefore + 2);
    expect(await balanceOf(quote.deposit_address)).toBe(13_500_000n);
    const updates = await quoteUpdates(quote.id);
    expect(updates.map((u) => u.subject.split(':').slice(1).join(':')).sort()).toEqual(
      [
        `refund:${refunds[0]!.id}:pending`,
        `refund:${refunds[0]!.id}:sent`,
        `refund:${refunds[1]!.id}:pending`,
        `refund:${refunds[1]!.id}:sent`,
      ].sort(),
    );
    expect(updates.every((u) => u.body.event === 'quote_update')).toBe(true);
    // The failed offramp keeps its message; the return is the quote's.
    expect((await offrampRows(quote.id))[0]).toMatchObject({ status: 'failed', refund_status: null });

    // A run started again (as a late report does) finds the same transfers and sends nothing more.
    expect((await run()).status).toBe('expired');
    expect((await refundRows(quote.id)).map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(await treasuryNonce()).toBe(nonceBefore + 2);
    expect(await balanceOf(a)).toBe(aBefore);
  });

  it("returns an overpaid execute's excess and another transfer while paying out", async () => {
    const { quote, offramps, input } = await quoteWith(['10.00'], usdc());
    const [a, b] = [shopper(3), shopper(4)];
    const [aBefore, bBefore] = [await balanceOf(a), await balanceOf(b)];
    // The quote costs 11; the executing transfer brings 15, and another sender adds 1.5.
    const funding = await chain.transfer(3, usdc(), quote.deposit_address as Address, 15_000_000n);
    const extra = await chain.transfer(4, usdc(), quote.deposit_address as Address, 1_500_000n);
    await execute(quote.id, { txId: funding.toLowerCase(), received: 15_000_000n, sender: a });
    await watcherRecords(quote.deposit_address);
    const nonceBefore = await treasuryNonce();

    const result = await (async () => {
      const handle = await env.client.workflow.start(quoteLifecycle, {
        workflowId: quoteWorkflowId(quote.id),
        taskQueue: w.taskQueue,
        args: [{ ...input, executed: true }],
      });
      return handle.result();
    })();
    expect(result).toEqual({
      quoteId: quote.id,
      status: 'completed',
      offramps: [{ id: offramps[0]!.id, status: 'fiat_sent' }],
    });
    const refunds = await refundRows(quote.id);
    expect(refunds.map((r) => [r.reason, r.status, r.address, r.amount, r.deposit_tx_hash]).sort()).toEqual(
      [
        ['excess', 'sent', a, '4000000', funding.toLowerCase()],
        ['extra_transfer', 'sent', b, '1500000', extra.toLowerCase()],
      ].sort(),
    );
    // Each sender is out exactly what the payout cost (11) or nothing.
    expect(await balanceOf(a)).toBe(aBefore - 11_000_000n);
    expect(await balanceOf(b)).toBe(bBefore);
    expect(await treasuryNonce()).toBe(nonceBefore + 2);
    expect((await quoteRow(quote.id)).status).toBe('completed');
  });

  it('sends a refund once when its activity is retried after the broadcast', async () => {
    const { quote, input } = await quoteWith(['10.00'], usdc());
    const a = shopper(4);
    const aBefore = await balanceOf(a);
    await chain.transfer(4, usdc(), quote.deposit_address as Address, 7_000_000n);
    await watcherRecords(quote.deposit_address);
    const nonceBefore = await treasuryNonce();

    // The first attempt signs, records and broadcasts, then is lost before it reports back.
    const real = quoteActivities();
    let attempts = 0;
    const flaky = await worker({
      ...real,
      async sendQuoteRefund(args) {
        attempts += 1;
        const step = await real.sendQuoteRefund(args);
        if (attempts === 1) throw new Error('the worker lost the attempt after the broadcast');
        return step;
      },
    });
    const result = await flaky.run(async () => {
      const handle = await env.client.workflow.start(quoteLifecycle, {
        workflowId: quoteWorkflowId(quote.id),
        taskQueue: flaky.taskQueue,
        args: [input],
      });
      return handle.result();
    });
    expect(result.status).toBe('expired');
    expect(attempts).toBe(2);
    const [refund] = await refundRows(quote.id);
    expect(refund).toMatchObject({ reason: 'quote_expired', status: 'sent', address: a, amount: '7000000' });
    expect(await balanceOf(a)).toBe(aBefore);
    // One transaction left the treasury: the retry rebroadcast the recorded one.
    expect(await treasuryNonce()).toBe(nonceBefore + 1);
  });
});

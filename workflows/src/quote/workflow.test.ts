/**
 * `quoteLifecycle` on the time-skipping test server with the real quote activities over PGlite: the
 * expiry timer (an hour, skipped), payouts started by the execute signal, a lost signal caught by the
 * timer, and a bounced payout resent on the user's request.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createChainClients } from '@checkout/chain';
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
  requestBouncedOfframpAction,
} from '@checkout/db';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import { createTimeSkippingEnv, startTestWorker } from '../../../test/support/temporal.ts';
import { startWebhookEndpoint, type WebhookEndpoint } from '../../../test/support/webhookEndpoint.ts';
import { createWebhookActivities } from '../webhookDelivery/activities.ts';
import { createQuoteActivities } from './activities.ts';
import {
  offrampActionSignal,
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

/** An open quote expiring in an hour with one initiated offramp per amount (USD, rate 1, fee 1). */
async function quoteWith(amounts: string[]) {
  const detail = await approvedDetail();
  const quote = await insertQuote(db.kysely, {
    id: randomUUID(),
    user_id: userId,
    merchant_id: merchantId,
    deposit_token: 'usdc',
    deposit_token_chain: 'binance-smart-chain',
    chain_id: 97,
    network: 'testnet',
    token_address: randomAddress(),
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

const execute = (quoteId: string) =>
  markQuoteExecuted(
    db.kysely,
    quoteId,
    { tx_id: `0x${randomBytes(32).toString('hex')}`, blockchain: 'binance-smart-chain', network: 'testnet' },
    '1000000000',
    randomAddress(),
  );

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
    .map((r) => (JSON.parse(r.payload) as { payload: { offramp: { status: string } } }).payload);
};

/** A worker with the real quote and webhook activities on its own task queue. */
async function worker() {
  return startTestWorker({
    connection: env.nativeConnection,
    activities: {
      ...createQuoteActivities({
        db,
        chains: createChainClients([]),
        ramps: { payoutSandboxDelayMs: 60_000, treasuryPrivateKey: `0x${'11'.repeat(32)}` },
      }),
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
  db = await openDatabase({ kind: 'pglite-memory' });
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

/**
 * `kycOnboarding` on the time-skipping test server with the real KYC and webhook activities over PGlite: a
 * provider session left unfinished expires into `retry_required` after the configured time (an hour here,
 * skipped), announced by its `kyc_update`; a case that lives through many events continues as new, the open
 * session's clock and the unhandled events travelling with it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createApiKey,
  createSecretBox,
  type Db,
  insertUser,
  openDatabase,
  putAccountWebhookEndpoint,
} from '@checkout/db';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import { createTimeSkippingEnv, startTestWorker } from '../../../test/support/temporal.ts';
import { startWebhookEndpoint, type WebhookEndpoint } from '../../../test/support/webhookEndpoint.ts';
import { createWebhookActivities } from '../webhookDelivery/activities.ts';
import { createKycActivities } from './activities.ts';
import {
  type KycEvent,
  type KycOnboardingInput,
  type KycState,
  kycEventSignal,
  kycSessionExpiry,
  kycStateQuery,
  kycWorkflowId,
} from './shared.ts';
import { kycOnboarding } from './workflow.ts';

const secrets = createSecretBox(randomBytes(32));
const opened: KycEvent = { source: 'session', status: 'initiated' };
const notStarted = { status: 'not_started', swift_status: 'not_started' };

let db: Db;
let env: TestWorkflowEnvironment;
let endpoint: WebhookEndpoint;
let w: Awaited<ReturnType<typeof startTestWorker>>;
let running: Promise<void>;

/** A merchant whose account endpoint is `endpoint`, and a new user of it whose case has not started. */
async function newUser(): Promise<{ userId: string; merchantId: string }> {
  const address = privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`);
  const { merchantId } = await createApiKey(db.kysely, { address });
  await putAccountWebhookEndpoint(db.kysely, merchantId, endpoint.url);
  const user = await insertUser(db.kysely, {
    id: randomUUID(),
    merchant_id: merchantId,
    beneficiary_type: 'individual',
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: null,
    email: 'ada@example.com',
    date_of_birth: '1990-02-01',
    address_line1: '1 Main St',
    address_line2: null,
    city: 'Berlin',
    state: 'Berlin',
    postcode: '10117',
    country: 'DE',
    nationality: 'DE',
    phone: '+447515772386',
    ssn_ciphertext: secrets.seal('123-45-6789'),
    website: null,
    source_of_funds: null,
    business_activity: null,
    business_description: null,
    kyc: {
      general: { status: 'not_started', moderation_comment: null },
      eur: notStarted,
      usd: notStarted,
      ars: notStarted,
    },
  });
  return { userId: user.id, merchantId };
}

/** The general KYC status of each `kyc_update` the endpoint received for `userId`, in order. */
function announced(userId: string): KycState['general'][] {
  return endpoint.requests
    .map(
      (r) =>
        JSON.parse(r.body.toString()) as {
          event: string;
          payload: { user: { id: string } & { kyc: KycState } };
        },
    )
    .filter((body) => body.event === 'kyc_update' && body.payload.user.id === userId)
    .map((body) => body.payload.user.kyc.general);
}

/** Waits (bounded) until the current run's history shows the session's timer. */
async function waitForTimer(workflowId: string) {
  const handle = env.client.workflow.getHandle(workflowId);
  for (let i = 0; i < 100; i++) {
    const history = await handle.fetchHistory();
    if (history.events?.some((e) => e.timerStartedEventAttributes)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the workflow never started the session timer');
}

beforeAll(async () => {
  db = await openDatabase({ kind: 'pglite-memory' });
  endpoint = await startWebhookEndpoint();
});

afterAll(async () => {
  await endpoint?.close();
  await db?.close();
});

// A fresh test server and worker per test, so each test's clock starts at now.
beforeEach(async () => {
  env = await createTimeSkippingEnv();
  w = await startTestWorker({
    connection: env.nativeConnection,
    activities: {
      ...createKycActivities({ db, secrets, kyc: { sessionTimeoutMinutes: 60 } }),
      ...createWebhookActivities({ db, secrets, webhooks: { allowPrivateAddresses: true } }),
    },
  });
  running = w.worker.run();
});

afterEach(async () => {
  if (w?.worker.getState() === 'RUNNING') w.worker.shutdown();
  await running;
  await env?.teardown();
});

describe('kycOnboarding on the time-skipping server', () => {
  it('expires a provider session left unfinished for the configured time, with its kyc_update', async () => {
    const { userId, merchantId } = await newUser();
    const before = endpoint.requests.length;
    const handle = await env.client.workflow.start(kycOnboarding, {
      workflowId: kycWorkflowId(userId),
      taskQueue: w.taskQueue,
      args: [{ userId, merchantId }],
    });
    await handle.signal(kycEventSignal, opened);
    await endpoint.waitFor(before + 1);
    expect(announced(userId)).toEqual([{ status: 'initiated', moderation_comment: null }]);
    await waitForTimer(handle.workflowId);

    // Within the hour the session stays open.
    await env.sleep('59 minutes');
    expect((await handle.query(kycStateQuery))?.kyc.general.status).toBe('initiated');

    await env.sleep('2 minutes');
    await endpoint.waitFor(before + 2);
    const expired = { status: 'retry_required', moderation_comment: kycSessionExpiry.moderationComment };
    expect(announced(userId)).toEqual([{ status: 'initiated', moderation_comment: null }, expired]);
    expect((await handle.query(kycStateQuery))?.kyc.general).toEqual(expired);
    const row = await db.kysely
      .selectFrom('users')
      .select(['kyc', 'kyc_version'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kyc: { general: expired }, kyc_version: 2 });
    // The case is not settled: the workflow waits for the user's next session, with no clock running.
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });

  it("continues as new after 200 events, with the open session's clock and the unhandled event", async () => {
    const { userId, merchantId } = await newUser();
    const before = endpoint.requests.length;
    // The user opened the page 201 times (events a run hands to the next arrive so): one change, then 200
    // events that change nothing.
    const handle = await env.client.workflow.start(kycOnboarding, {
      workflowId: kycWorkflowId(userId),
      taskQueue: w.taskQueue,
      args: [{ userId, merchantId, pending: Array.from({ length: 201 }, () => opened) }],
    });
    const first = env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
    for (let i = 0; i < 200 && (await first.describe()).status.name === 'RUNNING'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');
    const next = await env.client.workflow.getHandle(handle.workflowId).describe();
    expect(next.runId).not.toBe(handle.firstExecutionRunId);
    expect(next.status.name).toBe('RUNNING');
    await endpoint.waitFor(before + 1);
    expect(announced(userId)).toEqual([{ status: 'initiated', moderation_comment: null }]);

    // The new run carries the open session's clock and the event the first left unhandled. (The test server
    // skips no time after a continue-as-new, so the expiry itself is the first test's.)
    const history = await env.client.workflow.getHandle(handle.workflowId, next.runId).fetchHistory();
    const [payload] = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    const carried = JSON.parse(Buffer.from(payload!.data!).toString()) as KycOnboardingInput;
    expect(carried).toMatchObject({ userId, merchantId, pending: [opened] });
    expect(carried.sessionOpenedAt).toBeGreaterThan(0);
    await waitForTimer(handle.workflowId);
  });
});

import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  createApiKey,
  createSecretBox,
  createWebhookDelivery,
  type Db,
  ensureWebhookSecret,
  openDatabase,
} from '@checkout/db';
import type { Client } from '@temporalio/client';
import { MockActivityEnvironment, type TestWorkflowEnvironment } from '@temporalio/testing';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import {
  connectTestTemporal,
  createTimeSkippingEnv,
  shownStatus,
  startTestWorker,
  type TestTemporal,
} from '../../../test/support/temporal.ts';
import {
  type EndpointReply,
  startWebhookEndpoint,
  type WebhookEndpoint,
} from '../../../test/support/webhookEndpoint.ts';
import { createWorkflowCallDispatcher } from '../handOver/dispatcher.ts';
import { MerchantId } from '../shared.ts';
import { createWebhookActivities } from './activities.ts';
import { firstAttemptRetry, type WebhookAttemptResult, webhookWorkflowId } from './shared.ts';
import { queueDeliveryStart } from './start.ts';
import { webhookDelivery } from './workflow.ts';

const hour = 3_600_000;
const secrets = createSecretBox(randomBytes(32));
const payload = JSON.stringify({
  id: randomUUID(),
  dollar_amount: '25.00',
  user: { email: 'shopper@example.com', custom_fields: { full_name: 'Zoë Ünal ☕' } },
});

let db: Db;
let merchantId: string;
const receivers: WebhookEndpoint[] = [];

async function receiver(reply?: (index: number) => EndpointReply): Promise<WebhookEndpoint> {
  const started = await startWebhookEndpoint(reply);
  receivers.push(started);
  return started;
}

async function newDelivery(url: string): Promise<string> {
  const row = await createWebhookDelivery(db.kysely, secrets, {
    merchantId,
    eventType: 'resolved_payment.created',
    subjectId: randomUUID(),
    url,
    payload: () => payload,
  });
  return row.id;
}

async function deliveryRow(id: string) {
  const delivery = await db.kysely
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const attempts = await db.kysely
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', id)
    .orderBy('attempt')
    .execute();
  return { delivery, attempts };
}

function activities(allowPrivateAddresses = true) {
  return createWebhookActivities({ db, secrets, webhooks: { allowPrivateAddresses } });
}

/** How the service starts a delivery's workflow: one per delivery, never run twice. */
function webhookStartOptions(deliveryId: string, taskQueue: string) {
  return {
    workflowId: webhookWorkflowId(deliveryId),
    taskQueue,
    args: [{ deliveryId }] as [{ deliveryId: string }],
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
  };
}

async function deliver(client: Client, taskQueue: string, deliveryId: string) {
  const handle = await client.workflow.start(webhookDelivery, webhookStartOptions(deliveryId, taskQueue));
  return { handle, result: await handle.result() };
}

beforeAll(async () => {
  db = await openDatabase({ kind: 'pglite-memory' });
  const created = await createApiKey(db.kysely, {
    address: privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`),
  });
  merchantId = created.merchantId;
});

afterAll(async () => {
  for (const r of receivers) await r.close();
  await db?.close();
});

describe('webhookDelivery on the dev server', () => {
  let temporal: TestTemporal;

  beforeAll(async () => {
    temporal = await connectTestTemporal();
  });
  afterAll(async () => {
    await temporal?.teardown();
  });

  it('delivers once, signed over the exact bytes it sent', async () => {
    const endpoint = await receiver();
    const url = `${endpoint.url}/hooks/pay?token=abc`;
    const deliveryId = await newDelivery(url);
    const worker = await startTestWorker({ connection: temporal.nativeConnection, activities: activities() });
    const { handle, result } = await worker.run(() => deliver(temporal.client, worker.taskQueue, deliveryId));

    expect(result).toMatchObject({ deliveryId, status: 'succeeded', attempts: 1 });
    expect(endpoint.requests).toHaveLength(1);
    const [request] = endpoint.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks/pay?token=abc' });
    expect(request!.body.equals(Buffer.from(payload, 'utf8'))).toBe(true);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'stable-checkout-webhooks/1',
      'x-webhook-id': deliveryId,
      'x-webhook-event': 'resolved_payment.created',
      'content-length': String(Buffer.byteLength(payload)),
    });
    expect(request!.headers['x-webhook-original-id']).toBeUndefined();

    // Recomputed the way a receiver would: from the raw bytes, with an independent HMAC.
    const match = /^t=(\d+), s=([0-9a-f]{64})$/.exec(String(request!.headers['x-sig']));
    expect(match).not.toBeNull();
    const [, t, s] = match!;
    const { secret } = await ensureWebhookSecret(db.kysely, secrets, merchantId);
    const expected = createHmac('sha256', secret).update(`${t}.`).update(request!.body).digest('hex');
    expect(s).toBe(expected);
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);

    const { delivery, attempts } = await deliveryRow(deliveryId);
    // The body is stored sealed (it carries the shopper's e-mail) and opens to the bytes sent.
    expect(delivery.payload).not.toContain('shopper@example.com');
    expect(secrets.open(delivery.payload)).toBe(payload);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivery.delivered_at).toBeInstanceOf(Date);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, status_code: 200, error: null, response_snippet: '{}' });
    expect(attempts[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    console.info(`webhook attempt latency on loopback: ${attempts[0]!.duration_ms} ms`);

    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(MerchantId)).toBe(merchantId);
    expect(description.memo).toEqual({
      eventType: 'resolved_payment.created',
      urlHost: new URL(url).host,
    });

    // A second start neither restarts the finished workflow nor sends again: the queued call is taken as moot.
    const dispatcher = createWorkflowCallDispatcher({
      db: db.kysely,
      temporal,
      taskQueue: worker.taskQueue,
      log: { info: () => {}, warn: () => {} },
    });
    const call = await queueDeliveryStart(db.kysely, deliveryId);
    await dispatcher.dispatch([call]);
    expect(await dispatcher.backlog(Date.now() + 60_000)).toBe(0);
    await expect(
      temporal.client.workflow.start(webhookDelivery, webhookStartOptions(deliveryId, worker.taskQueue)),
    ).rejects.toThrow(/already/i);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('gives up after one attempt on a 400', async () => {
    const endpoint = await receiver(() => ({ status: 400, body: '{"error":"unknown order"}' }));
    const deliveryId = await newDelivery(`${endpoint.url}/hook`);
    const worker = await startTestWorker({ connection: temporal.nativeConnection, activities: activities() });
    const { result, shown } = await worker.run(async () => {
      const { handle, result } = await deliver(temporal.client, worker.taskQueue, deliveryId);
      return { result, shown: await shownStatus(handle) };
    });

    expect(result).toMatchObject({ status: 'failed', attempts: 1 });
    // Ops see the outcome in the Temporal UI: in the list's Summary column and in the current details.
    expect(shown.summary).toBe(
      `Webhook resolved_payment.created → ${new URL(endpoint.url).host} · failed (1 attempt)`,
    );
    expect(shown.details).toBe(
      '- **Failed** after 1 attempt; no further attempt\n- attempt 1 failed: HTTP 400',
    );
    expect(endpoint.requests).toHaveLength(1);
    const { delivery, attempts } = await deliveryRow(deliveryId);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      last_status_code: 400,
      last_error: 'HTTP 400',
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(attempts).toMatchObject([
      { attempt: 1, status_code: 400, error: 'HTTP 400', response_snippet: '{"error":"unknown order"}' },
    ]);
  });

  it('keeps only the first 1 KB of a long answer', async () => {
    const endpoint = await receiver(() => ({ status: 200, body: 'x'.repeat(200_000) }));
    const deliveryId = await newDelivery(`${endpoint.url}/long`);
    const worker = await startTestWorker({ connection: temporal.nativeConnection, activities: activities() });
    const { result } = await worker.run(() => deliver(temporal.client, worker.taskQueue, deliveryId));
    expect(result.status).toBe('succeeded');
    const { attempts } = await deliveryRow(deliveryId);
    expect(attempts[0]!.response_snippet).toBe('x'.repeat(1024));
  });

  it('refuses loopback targets when private addresses are not allowed', async () => {
    const endpoint = await receiver();
    const port = new URL(endpoint.url).port;
    const worker = await startTestWorker({
      connection: temporal.nativeConnection,
      activities: activities(false),
    });
    const cases = [
      { url: `${endpoint.url}/hook`, error: /127\.0\.0\.1.*loopback/ },
      { url: `http://[::1]:${port}/hook`, error: /::1.*loopback/ },
      { url: `http://localhost:${port}/hook`, error: /localhost/ },
    ];
    await worker.run(async () => {
      for (const c of cases) {
        const deliveryId = await newDelivery(c.url);
        const { result } = await deliver(temporal.client, worker.taskQueue, deliveryId);
        expect(result, c.url).toMatchObject({ status: 'failed', attempts: 1 });
        const { delivery, attempts } = await deliveryRow(deliveryId);
        expect(delivery.status).toBe('failed');
        expect(delivery.last_error).toMatch(c.error);
        expect(delivery.last_error).toMatch(/public addresses only/);
        expect(attempts).toHaveLength(1);
        expect(attempts[0]!.status_code).toBeNull();
      }
    });
    expect(endpoint.requests).toHaveLength(0);
  });
});

describe('webhookDelivery on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('retries a 500, a 503 with Retry-After and a reset connection, then delivers', async () => {
    const replies: EndpointReply[] = [
      { status: 500 },
      { status: 503, headers: { 'retry-after': '120' } },
      'reset',
      { status: 200 },
    ];
    const endpoint = await receiver((i) => replies[i] ?? { status: 200 });
    const deliveryId = await newDelivery(`${endpoint.url}/flaky`);
    const worker = await startTestWorker({ connection: env.nativeConnection, activities: activities() });
    const { handle, result } = await worker.run(() => deliver(env.client, worker.taskQueue, deliveryId));

    expect(result).toMatchObject({ status: 'succeeded', attempts: 4 });
    expect(endpoint.requests).toHaveLength(4);
    // Every attempt carries the same delivery id and the same bytes.
    for (const r of endpoint.requests) {
      expect(r.headers['x-webhook-id']).toBe(deliveryId);
      expect(r.body.toString('utf8')).toBe(payload);
    }
    const { delivery, attempts } = await deliveryRow(deliveryId);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 4, last_status_code: 200 });
    expect(attempts.map((a) => a.status_code)).toEqual([500, 503, null, 200]);
    expect(attempts.map((a) => a.error?.replace(/:.*/, ''))).toEqual([
      'HTTP 500',
      'HTTP 503',
      expect.stringMatching(/ECONNRESET|socket hang up/),
      undefined,
    ]);

    // Waits: 30 s, then Retry-After 120 s over the 60 s backoff, then the 120 s backoff.
    const history = await handle.fetchHistory();
    const timers = (history.events ?? [])
      .map((e) => e.timerStartedEventAttributes?.startToFireTimeout?.seconds)
      .filter((s) => s !== undefined && s !== null)
      .map(Number);
    expect(timers).toEqual([30, 120, 120]);
    // The Summary column followed every attempt.
    const summaries = (history.events ?? []).flatMap((e) => {
      const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.Summary;
      return field?.data ? [JSON.parse(Buffer.from(field.data).toString('utf8')) as string] : [];
    });
    expect(summaries.map((line) => line.replace(/^.* · /, ''))).toEqual([
      'sending',
      'failing (1 attempt)',
      'failing (2 attempts)',
      'failing (3 attempts)',
      'delivered (4 attempts)',
    ]);
  });

  it('carries on from an attempt its caller made: waits that attempt’s backoff, then attempt 2', async () => {
    const replies: EndpointReply[] = [{ status: 503, headers: { 'retry-after': '90' } }, { status: 200 }];
    const endpoint = await receiver((i) => replies[i] ?? { status: 200 });
    const deliveryId = await newDelivery(`${endpoint.url}/handed-over`);
    const acts = activities();
    // The checkout makes attempt 1 itself, right after recording the payment.
    const first = (await new MockActivityEnvironment().run(acts.attemptWebhookDelivery, {
      deliveryId,
      attempt: 1,
      retry: firstAttemptRetry(),
    })) as WebhookAttemptResult;
    expect(first).toMatchObject({ outcome: 'retry', retryAfterSeconds: 90, statusCode: 503 });

    const worker = await startTestWorker({ connection: env.nativeConnection, activities: acts });
    const { handle, result } = await worker.run(async () => {
      const started = await env.client.workflow.start(webhookDelivery, {
        ...webhookStartOptions(deliveryId, worker.taskQueue),
        args: [{ deliveryId, madeAttempt: { attempt: 1, result: first } }],
      });
      return { handle: started, result: await started.result() };
    });
    expect(result).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(endpoint.requests).toHaveLength(2);
    const { delivery, attempts } = await deliveryRow(deliveryId);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    const history = await handle.fetchHistory();
    const timers = (history.events ?? [])
      .map((e) => e.timerStartedEventAttributes?.startToFireTimeout?.seconds)
      .filter((t) => t !== undefined && t !== null)
      .map(Number);
    expect(timers).toEqual([90]);
  });

  it('ends at once when its caller’s attempt already delivered', async () => {
    const endpoint = await receiver();
    const deliveryId = await newDelivery(`${endpoint.url}/delivered`);
    const acts = activities();
    const first = (await new MockActivityEnvironment().run(acts.attemptWebhookDelivery, {
      deliveryId,
      attempt: 1,
      retry: firstAttemptRetry(),
    })) as WebhookAttemptResult;
    expect(first.outcome).toBe('delivered');
    const worker = await startTestWorker({ connection: env.nativeConnection, activities: acts });
    const result = await worker.run(() =>
      env.client.workflow.execute(webhookDelivery, {
        ...webhookStartOptions(deliveryId, worker.taskQueue),
        args: [{ deliveryId, madeAttempt: { attempt: 1, result: first } }],
      }),
    );
    expect(result).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(endpoint.requests).toHaveLength(1);
  });

  it('keeps retrying for hours, then delivers (multi-hour backoff in seconds of wall time)', async () => {
    const failures = 10;
    const endpoint = await receiver((i) => (i < failures ? { status: 503 } : { status: 204 }));
    const deliveryId = await newDelivery(`${endpoint.url}/slow`);
    const worker = await startTestWorker({ connection: env.nativeConnection, activities: activities() });
    const wallStart = performance.now();
    const { result } = await worker.run(() => deliver(env.client, worker.taskQueue, deliveryId));
    const wallMs = performance.now() - wallStart;

    expect(result).toMatchObject({ status: 'succeeded', attempts: failures + 1 });
    // 30 s doubling ten times: 30 × (2^10 − 1) s ≈ 8.5 h of workflow time.
    const workflowMs = result.finishedAt - result.startedAt;
    expect(workflowMs).toBeGreaterThanOrEqual(30 * 1023 * 1000);
    expect(workflowMs).toBeLessThan(9 * hour);
    expect(wallMs).toBeLessThan(30_000);
    const { delivery } = await deliveryRow(deliveryId);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempt_count: failures + 1,
      last_status_code: 204,
    });
    console.info(
      `webhook backoff: ${(workflowMs / hour).toFixed(2)} h of workflow time in ${Math.round(wallMs)} ms`,
    );
  });

  it('ends as missing when the delivery row never appears', async () => {
    const worker = await startTestWorker({ connection: env.nativeConnection, activities: activities() });
    const deliveryId = randomUUID();
    const started = performance.now();
    const { result } = await worker.run(() => deliver(env.client, worker.taskQueue, deliveryId));
    expect(result).toMatchObject({ deliveryId, status: 'missing', attempts: 0 });
    console.info(
      `missing delivery given up after ${Math.round(performance.now() - started)} ms of wall time`,
    );
  });

  it('fails the delivery when three days pass without success', async () => {
    const endpoint = await receiver(() => ({ status: 500 }));
    const deliveryId = await newDelivery(`${endpoint.url}/down`);
    const worker = await startTestWorker({ connection: env.nativeConnection, activities: activities() });
    const wallStart = performance.now();
    const { result } = await worker.run(() => deliver(env.client, worker.taskQueue, deliveryId));
    const wallMs = performance.now() - wallStart;

    expect(result).toMatchObject({ status: 'failed', attempts: 22 });
    const workflowMs = result.finishedAt - result.startedAt;
    // The last attempt lands on the horizon (whole seconds of it).
    expect(workflowMs).toBeGreaterThan(72 * hour - 60_000);
    expect(workflowMs).toBeLessThan(73 * hour);
    expect(endpoint.requests).toHaveLength(22);
    const { delivery, attempts } = await deliveryRow(deliveryId);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempt_count: 22,
      last_status_code: 500,
      next_attempt_at: null,
    });
    expect(attempts).toHaveLength(22);
    console.info(`webhook horizon: 22 attempts over 72 h of workflow time in ${Math.round(wallMs)} ms`);
  });
});

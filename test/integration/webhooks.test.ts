/** Webhook secret, delivery log and redelivery against the real server, worker and database. */
import { createHmac, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { WebhookDelivery, WebhookSecretResponse, webhookEvents } from '@checkout/core';
import {
  createWebhookDelivery,
  presentResolvedPayment,
  webhookEnvelope,
  webhookRequestBody,
} from '@checkout/db';
import { createLogger } from '@checkout/server';
import { queueDeliveryStart, webhookWorkflowId } from '@checkout/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import {
  randomAddress,
  startTestService,
  type TestMerchant,
  type TestResponse,
  type TestService,
} from '../support/service.ts';
import { startWebhookEndpoint, type WebhookEndpoint } from '../support/webhookEndpoint.ts';

const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const storedToken = {
  symbol: 'USDC',
  address: usdc.address,
  name: 'USD Coin',
  decimal_count: 6,
  blockchain: 'ethereum',
  network: 'mainnet',
};
const deliveryFields = [
  'id',
  'event_type',
  'url',
  'status',
  'attempt_count',
  'last_status_code',
  'last_error',
  'created_at',
  'delivered_at',
  'redelivery_of',
  'event_id',
  'event_sequence',
  'test',
  'attempts',
].sort();
const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectError(res: TestResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error_code', 'errors', 'message', 'status']);
  expect(res.body).toMatchObject({ error_code: code, status });
}

function signatureOf(secret: string, header: string | string[] | undefined, body: Buffer): boolean {
  const match = /^t=(\d+), s=([0-9a-f]{64})$/.exec(String(header));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.`).update(body).digest('hex');
  return expected === match[2];
}

describe.skipIf(databaseUnavailable())('webhooks', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let endpoint: WebhookEndpoint;
  let productId: string;
  let logs = '';

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs += chunk.toString('utf8');
        done();
      },
    });
    [service, endpoint] = await Promise.all([
      startTestService({ logger: createLogger('debug', sink) }),
      startWebhookEndpoint(),
    ]);
    merchant = await service.createMerchant();
    productId = await createProduct(merchant);
  });
  afterAll(async () => {
    await service?.stop();
    await endpoint?.close();
  });

  async function createProduct(who: TestMerchant): Promise<string> {
    const res = await service.request('POST', '/api/v1/products', {
      headers: who.headers,
      json: {
        product: {
          name: 'Hooked',
          email: 'owner@example.com',
          token: usdc,
          send_webhook: true,
          webhook_url: `${endpoint.url}/hooks/pay`,
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.product.id;
  }

  /** A resolved payment written directly, and its webhook queued as the checkout flow would. */
  async function paymentWebhook(
    who: TestMerchant,
    product: string,
  ): Promise<{ id: string; payload: string }> {
    const db = service.deps.db.kysely;
    const row = await db
      .insertInto('resolved_payments')
      .values({
        id: randomUUID(),
        product_id: product,
        expected_payment_id: randomUUID(),
        is_test: false,
        dollar_amount: '25.00',
        metadata: JSON.stringify({ order: 'A-1' }),
        user_email: 'shopper@example.com',
        custom_fields: JSON.stringify({}),
        chain_id: 1,
        expected_token: JSON.stringify(storedToken),
        received_token: JSON.stringify(storedToken),
        expected_token_amount: '25000000',
        received_token_amount: '25000000',
        amount_difference: '0.0',
        receiving_address: who.address,
        sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        tx_id: `0x${randomUUID().replaceAll('-', '').padEnd(64, '0')}`,
        log_index: 0,
        tx_success: true,
        tx_failure: false,
        swapped: false,
        late: false,
        created_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const productRow = await db
      .selectFrom('products')
      .selectAll()
      .where('id', '=', product)
      .executeTakeFirstOrThrow();
    const payload = JSON.stringify(presentResolvedPayment(row, productRow, service.deps.secrets));
    const delivery = await createWebhookDelivery(db, service.deps.secrets, {
      merchantId: who.merchantId,
      eventType: 'resolved_payment.created',
      subjectId: row.id,
      productId: product,
      url: productRow.webhook_url!,
      payload: () => payload,
    });
    return { id: delivery.id, payload };
  }

  async function listDeliveries(who: TestMerchant = merchant, product = productId) {
    return service.request('GET', `/api/v1/products/${product}/webhook_deliveries`, { headers: who.headers });
  }

  async function waitForStatus(id: string, status: string) {
    for (let i = 0; i < 100; i++) {
      const list = await listDeliveries();
      const found = list.body.webhook_deliveries.find((d: { id: string }) => d.id === id);
      if (found?.status === status) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`delivery ${id} did not reach ${status} in 10 s`);
  }

  it('creates the secret on first read, keeps it, and rotates it', async () => {
    const first = await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers });
    expect(first.status).toBe(200);
    expect(WebhookSecretResponse.safeParse(first.body).success).toBe(true);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const secret = first.body.webhook_secret;
    expect(secret.secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(secret.created_at).toMatch(isoMillis);
    expect(secret.rotated_at).toBeNull();

    const again = await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers });
    expect(again.body).toEqual(first.body);

    const rotated = await service.request('POST', '/api/v1/webhook_secret/rotate', {
      headers: merchant.headers,
    });
    expect(rotated.status).toBe(200);
    expect(WebhookSecretResponse.safeParse(rotated.body).success).toBe(true);
    expect(rotated.body.webhook_secret.secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(rotated.body.webhook_secret.secret).not.toBe(secret.secret);
    expect(rotated.body.webhook_secret.created_at).toBe(secret.created_at);
    expect(rotated.body.webhook_secret.rotated_at).toMatch(isoMillis);
    const after = await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers });
    expect(after.body).toEqual(rotated.body);

    // Stored encrypted; each merchant has its own.
    const stored = await service.deps.db.kysely
      .selectFrom('webhook_secrets')
      .select('secret_ciphertext')
      .where('merchant_id', '=', merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(stored.secret_ciphertext).not.toContain(rotated.body.webhook_secret.secret);
    const other = await service.createMerchant();
    const theirs = await service.request('GET', '/api/v1/webhook_secret', { headers: other.headers });
    expect(theirs.body.webhook_secret.secret).not.toBe(rotated.body.webhook_secret.secret);
  });

  it('delivers a signed event, lists it with its attempts, and redelivers it linked to the original', async () => {
    const { id, payload } = await paymentWebhook(merchant, productId);
    const before = endpoint.requests.length;
    await service.deps.handOver.dispatcher.dispatch([await queueDeliveryStart(service.db.kysely, id)]);
    const [first] = (await endpoint.waitFor(before + 1)).slice(before);

    const { secret } = (await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers }))
      .body.webhook_secret;
    expect(first!.path).toBe('/hooks/pay');
    expect(first!.body.toString('utf8')).toBe(payload);
    expect(signatureOf(secret, first!.headers['x-sig'], first!.body)).toBe(true);
    expect(first!.headers).toMatchObject({
      'x-webhook-id': id,
      'x-webhook-event': 'resolved_payment.created',
      'content-type': 'application/json',
      'user-agent': 'stable-checkout-webhooks/1',
    });
    expect(first!.headers['x-webhook-original-id']).toBeUndefined();
    const eventId = `evt_${id.replaceAll('-', '')}`;
    expect(first!.headers).toMatchObject({ 'x-event-id': eventId, 'x-event-sequence': '1' });

    const delivered = await waitForStatus(id, 'succeeded');
    expect(Object.keys(delivered).sort()).toEqual(deliveryFields);
    expect(WebhookDelivery.safeParse(delivered).success).toBe(true);
    expect(delivered).toMatchObject({
      id,
      event_type: 'resolved_payment.created',
      url: `${endpoint.url}/hooks/pay`,
      status: 'succeeded',
      attempt_count: 1,
      last_status_code: 200,
      last_error: null,
      redelivery_of: null,
    });
    expect(delivered.delivered_at).toMatch(isoMillis);
    expect(delivered.attempts).toEqual([
      {
        attempt: 1,
        started_at: expect.stringMatching(isoMillis),
        duration_ms: expect.any(Number),
        status_code: 200,
        error: null,
        response_excerpt: '{}',
      },
    ]);
    expect(delivered).toMatchObject({ event_id: eventId, event_sequence: 1, test: false });

    const redeliver = await service.request('POST', `/api/v1/webhook_deliveries/${id}/redeliver`, {
      headers: merchant.headers,
    });
    expect(redeliver.status, redeliver.text).toBe(200);
    expect(Object.keys(redeliver.body)).toEqual(['webhook_delivery']);
    const copy = redeliver.body.webhook_delivery;
    expect(WebhookDelivery.safeParse(copy).success).toBe(true);
    expect(copy).toMatchObject({ redelivery_of: id, attempt_count: 0, attempts: [], url: delivered.url });
    expect(copy.id).not.toBe(id);

    const [second] = (await endpoint.waitFor(before + 2)).slice(before + 1);
    expect(second!.headers['x-webhook-id']).toBe(copy.id);
    expect(second!.headers['x-webhook-original-id']).toBe(id);
    // A redelivery is the same event: its id and sequence stay.
    expect(second!.headers).toMatchObject({ 'x-event-id': eventId, 'x-event-sequence': '1' });
    expect(second!.body.equals(first!.body)).toBe(true);
    expect(signatureOf(secret, second!.headers['x-sig'], second!.body)).toBe(true);

    // A redelivery of the redelivery still points at the first delivery.
    await waitForStatus(copy.id, 'succeeded');
    const third = await service.request('POST', `/api/v1/webhook_deliveries/${copy.id}/redeliver`, {
      headers: merchant.headers,
    });
    expect(third.body.webhook_delivery.redelivery_of).toBe(id);
    const [thirdRequest] = (await endpoint.waitFor(before + 3)).slice(before + 2);
    expect(thirdRequest!.headers['x-webhook-original-id']).toBe(id);
    expect(thirdRequest!.headers).toMatchObject({ 'x-event-id': eventId, 'x-event-sequence': '1' });
    await waitForStatus(third.body.webhook_delivery.id, 'succeeded');

    const list = await listDeliveries();
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['webhook_deliveries']);
    const ids = list.body.webhook_deliveries.map((d: { id: string }) => d.id);
    expect(ids.slice(0, 3)).toEqual([third.body.webhook_delivery.id, copy.id, id]);
    for (const d of list.body.webhook_deliveries) {
      expect(Object.keys(d).sort()).toEqual(deliveryFields);
      expect(WebhookDelivery.safeParse(d).success).toBe(true);
    }
  });

  it('sends a test event of each type, signed and marked, and answers what the receiver said', async () => {
    const { secret } = (await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers }))
      .body.webhook_secret;
    const events = [
      'resolved_payment.created',
      'resolved_payment.updated',
      'resolved_payment.reversed',
      'refund.updated',
      'unmatched_transfer.created',
      'unmatched_transfer.updated',
    ];
    const sequences: string[] = [];
    for (const event of events) {
      const before = endpoint.requests.length;
      const res = await service.request('POST', `/api/v1/products/${productId}/webhook_test_events`, {
        headers: merchant.headers,
        json: { event },
      });
      expect(res.status, res.text).toBe(200);
      const delivery = res.body.webhook_delivery;
      expect(WebhookDelivery.safeParse(delivery).success).toBe(true);
      expect(delivery).toMatchObject({ event_type: event, test: true, url: `${endpoint.url}/hooks/pay` });
      expect(delivery.attempts).toEqual([
        expect.objectContaining({ attempt: 1, status_code: 200, response_excerpt: '{}' }),
      ]);
      const [request] = (await endpoint.waitFor(before + 1)).slice(before);
      expect(request!.headers).toMatchObject({
        'x-webhook-event': event,
        'x-test-event': 'true',
        'x-event-id': delivery.event_id,
      });
      expect(signatureOf(secret, request!.headers['x-sig'], request!.body)).toBe(true);
      sequences.push(String(request!.headers['x-event-sequence']));
      const body = JSON.parse(request!.body.toString('utf8'));
      if (event.startsWith('resolved_payment.')) {
        const product = await service.db.kysely
          .selectFrom('products')
          .select('secret_ciphertext')
          .where('id', '=', productId)
          .executeTakeFirstOrThrow();
        expect(body).toMatchObject({ is_test: true, product_id: productId });
        // The product's real secret, as on every resolved payment's webhook.
        expect(body.product_secret).toBe(service.deps.secrets.open(product.secret_ciphertext));
      } else {
        expect(body).toMatchObject({ event, id: delivery.event_id, sequence: delivery.event_sequence });
        const payload = body.payload.refund ?? body.payload.unmatched_transfer;
        expect(payload).toMatchObject({ is_test: true, product_id: productId });
      }
    }
    // Test events are numbered among themselves, never among a real record's events.
    expect(sequences.map(Number)).toEqual([...sequences.map(Number)].sort((a, b) => a - b));
  });

  it("sends a test event of each account type to the account's endpoint, signed and marked", async () => {
    const { secret } = (await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers }))
      .body.webhook_secret;
    const account = { authorization: merchant.headers.authorization! };
    const none = await service.request('POST', '/webhook_endpoint/test_events', {
      headers: account,
      json: { event: 'kyc_update' },
    });
    expectError(none, 409, 'conflict');
    expect(none.body.errors).toEqual([
      { path: 'webhook_endpoint', message: 'is not set (PUT /webhook_endpoint)' },
    ]);
    const put = await service.request('PUT', '/webhook_endpoint', {
      headers: account,
      json: { webhook_endpoint: { url: `${endpoint.url}/hooks/account` } },
    });
    expect(put.status, put.text).toBe(200);
    for (const [event, field] of [
      ['kyc_update', 'user'],
      ['payment_detail_update', 'payment_detail'],
      ['onramp_update', 'onramp'],
      ['offramp_update', 'offramp'],
      ['quote_update', 'quote'],
    ] as const) {
      const before = endpoint.requests.length;
      const res = await service.request('POST', '/webhook_endpoint/test_events', {
        headers: account,
        json: { event },
      });
      expect(res.status, res.text).toBe(200);
      const delivery = res.body.webhook_delivery;
      expect(WebhookDelivery.safeParse(delivery).success).toBe(true);
      expect(delivery).toMatchObject({ event_type: event, test: true, url: `${endpoint.url}/hooks/account` });
      expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
      const [request] = (await endpoint.waitFor(before + 1)).slice(before);
      expect(request!.headers).toMatchObject({
        'x-webhook-event': event,
        'x-test-event': 'true',
        'x-event-id': delivery.event_id,
      });
      expect(signatureOf(secret, request!.headers['x-sig'], request!.body)).toBe(true);
      const body = JSON.parse(request!.body.toString('utf8'));
      expect(body).toMatchObject({ event, id: delivery.event_id, sequence: delivery.event_sequence });
      expect(body.payload[field]).toMatchObject({ id: expect.any(String) });
    }
    const product = await service.request('POST', '/webhook_endpoint/test_events', {
      headers: account,
      json: { event: 'refund.updated' },
    });
    expectError(product, 422, 'record_invalid');
    expect(product.body.errors[0].path).toBe('event');
  });

  it('tells what the receiver answered to a test event, and refuses one without a webhook_url or type', async () => {
    const refusing = await startWebhookEndpoint(() => ({ status: 410, body: '{"error":"gone"}' }));
    try {
      const res = await service.request('POST', '/api/v1/products', {
        headers: merchant.headers,
        json: {
          product: {
            name: 'Refusing',
            email: 'owner@example.com',
            token: usdc,
            send_webhook: true,
            webhook_url: `${refusing.url}/hooks`,
          },
        },
      });
      expect(res.status, res.text).toBe(200);
      const sent = await service.request(
        'POST',
        `/api/v1/products/${res.body.product.id}/webhook_test_events`,
        {
          headers: merchant.headers,
          json: { event: 'refund.updated' },
        },
      );
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body.webhook_delivery.attempts[0]).toMatchObject({
        status_code: 410,
        response_excerpt: '{"error":"gone"}',
      });
    } finally {
      await refusing.close();
    }
    const plain = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: { product: { name: 'Quiet', email: 'owner@example.com', token: usdc } },
    });
    expect(plain.status, plain.text).toBe(200);
    const none = await service.request(
      'POST',
      `/api/v1/products/${plain.body.product.id}/webhook_test_events`,
      {
        headers: merchant.headers,
        json: { event: 'refund.updated' },
      },
    );
    expectError(none, 409, 'conflict');
    expect(none.body.errors).toEqual([{ path: 'webhook_url', message: 'is not set on this product' }]);
    const unknown = await service.request('POST', `/api/v1/products/${productId}/webhook_test_events`, {
      headers: merchant.headers,
      json: { event: 'kyc_update' },
    });
    expectError(unknown, 422, 'record_invalid');
    expect(unknown.body.errors[0].path).toBe('event');
  });

  it('numbers the events about one record in order, each with its own id, as the receiver gets them', async () => {
    const { id: createdId } = await paymentWebhook(merchant, productId);
    const db = service.deps.db.kysely;
    const created = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', createdId)
      .executeTakeFirstOrThrow();
    const payment = created.subject_id;
    const refundId = randomUUID();
    const url = created.url;
    // Later in the payment's life: refunded (resolved_payment.updated), and the refund's own events.
    const updated = await createWebhookDelivery(db, service.deps.secrets, {
      merchantId: merchant.merchantId,
      eventType: webhookEvents.resolvedPaymentUpdated,
      subjectId: `${payment}:refund:${refundId}`,
      productId,
      url,
      payload: () => '{"payment":"refunded"}',
    });
    const refundEvents = [];
    for (const status of ['awaiting_address', 'confirmed']) {
      refundEvents.push(
        await createWebhookDelivery(db, service.deps.secrets, {
          merchantId: merchant.merchantId,
          eventType: webhookEvents.refundUpdated,
          subjectId: `${refundId}:${status}`,
          productId,
          url,
          payload: (stamp) => webhookEnvelope(webhookEvents.refundUpdated, stamp, { refund: { status } }),
        }),
      );
    }
    const ids = [createdId, updated.id, ...refundEvents.map((d) => d.id)];
    const before = endpoint.requests.length;
    await service.deps.handOver.dispatcher.dispatch(
      await Promise.all(ids.map((d) => queueDeliveryStart(service.db.kysely, d))),
    );
    const arrived = (await endpoint.waitFor(before + ids.length)).slice(before);
    const byDelivery = new Map(arrived.map((r) => [String(r.headers['x-webhook-id']), r]));
    const seen = ids.map((d) => {
      const r = byDelivery.get(d)!;
      return { id: r.headers['x-event-id'], sequence: r.headers['x-event-sequence'] };
    });
    expect(seen.map((e) => e.sequence)).toEqual(['1', '2', '1', '2']);
    expect(new Set(seen.map((e) => e.id)).size).toBe(4);
    for (const e of seen) expect(e.id).toMatch(/^evt_[0-9a-f]{32}$/);
    // Our own events carry the same id and sequence in their envelope.
    const confirmed = JSON.parse(byDelivery.get(refundEvents[1]!.id)!.body.toString('utf8'));
    expect(confirmed).toEqual({
      event: 'refund.updated',
      id: seen[3]!.id,
      sequence: 2,
      payload: { refund: { status: 'confirmed' } },
    });
    for (const d of ids) await waitForStatus(d, 'succeeded');
  });

  it('gives concurrent events about one record distinct, consecutive sequences', async () => {
    const subject = randomUUID();
    const rows = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createWebhookDelivery(service.deps.db.kysely, service.deps.secrets, {
          merchantId: merchant.merchantId,
          eventType: webhookEvents.refundUpdated,
          subjectId: `${subject}:${i}`,
          productId,
          url: 'https://shop.example/hooks',
          payload: (stamp) => webhookEnvelope(webhookEvents.refundUpdated, stamp, {}),
        }),
      ),
    );
    expect(rows.map((r) => r.event_sequence).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('redelivers every event that failed since a time in one call, once', async () => {
    let refuse = true;
    const failing = await startWebhookEndpoint(() => (refuse ? { status: 410 } : { status: 200 }));
    try {
      const db = service.deps.db.kysely;
      const statusOf = async (id: string, status: string) => {
        // The delivery's row, read until it reaches `status` (its workflow records each attempt).
        for (;;) {
          const row = await db
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          if (row.status === status) return;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const since = new Date();
      const owner = await service.createMerchant();
      const product = await service.request('POST', '/api/v1/products', {
        headers: owner.headers,
        json: {
          product: {
            name: 'Gone',
            email: 'g@example.com',
            token: usdc,
            send_webhook: true,
            webhook_url: `${failing.url}/hooks`,
          },
        },
      });
      expect(product.status, product.text).toBe(200);
      const failed = [];
      for (let i = 0; i < 2; i++) {
        const row = await createWebhookDelivery(db, service.deps.secrets, {
          merchantId: owner.merchantId,
          eventType: webhookEvents.refundUpdated,
          subjectId: `${randomUUID()}:confirmed`,
          productId: product.body.product.id,
          url: `${failing.url}/hooks`,
          payload: (stamp) => webhookEnvelope(webhookEvents.refundUpdated, stamp, { n: i }),
        });
        failed.push(row);
      }
      await service.deps.handOver.dispatcher.dispatch(
        await Promise.all(failed.map((d) => queueDeliveryStart(service.db.kysely, d.id))),
      );
      await failing.waitFor(2);
      for (const d of failed) await statusOf(d.id, 'failed');
      refuse = false;

      const redeliver = (json: unknown, who = owner) =>
        service.request('POST', '/api/v1/webhook_deliveries/redeliver', { headers: who.headers, json });
      // Another merchant's wallet, another product, or a later time: nothing of these.
      expect((await redeliver({ since: since.toISOString() }, merchant)).body).toEqual({ queued: 0 });
      expect((await redeliver({ since: since.toISOString(), product_id: productId })).body).toEqual({
        queued: 0,
      });
      expect((await redeliver({ since: new Date(Date.now() + 60_000).toISOString() })).body).toEqual({
        queued: 0,
      });
      const bad = await redeliver({ since: 'yesterday' });
      expect(bad.status).toBe(422);

      const res = await redeliver({ since: since.toISOString(), product_id: product.body.product.id });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ queued: 2 });
      // While they are under way (or once sent), a repeat queues none again.
      expect((await redeliver({ since: since.toISOString() })).body).toEqual({ queued: 0 });

      const again = (await failing.waitFor(4)).slice(2);
      const eventIds = failed.map((d) => `evt_${d.id.replaceAll('-', '')}`).sort();
      expect(again.map((r) => String(r.headers['x-event-id'])).sort()).toEqual(eventIds);
      for (const r of again) expect(failed.map((d) => d.id)).toContain(r.headers['x-webhook-original-id']);
      const copies = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where(
          'redelivery_of',
          'in',
          failed.map((d) => d.id),
        )
        .execute();
      expect(copies).toHaveLength(2);
      for (const c of copies) await statusOf(c.id, 'succeeded');
    } finally {
      await failing.close();
    }
  });

  it('keeps an answer with NUL bytes as readable text, and delivers once', async () => {
    const binary = await startWebhookEndpoint(() => ({ status: 200, body: 'ok\u0000\u0000done' }));
    try {
      const other = await service.createMerchant();
      const res = await service.request('POST', '/api/v1/products', {
        headers: other.headers,
        json: {
          product: {
            name: 'Binary answers',
            email: 'owner@example.com',
            token: usdc,
            send_webhook: true,
            webhook_url: `${binary.url}/hooks/pay`,
          },
        },
      });
      expect(res.status, res.text).toBe(200);
      const { id } = await paymentWebhook(other, res.body.product.id);
      await service.deps.handOver.dispatcher.dispatch([await queueDeliveryStart(service.db.kysely, id)]);
      let shown: { status: string } | undefined;
      for (let i = 0; i < 200 && shown?.status !== 'succeeded'; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 100));
        const list = await listDeliveries(other, res.body.product.id);
        shown = list.body.webhook_deliveries.find((d: { id: string }) => d.id === id);
      }
      expect(shown?.status).toBe('succeeded');
      const attempts = await service.deps.db.kysely
        .selectFrom('webhook_attempts')
        .select('response_snippet')
        .where('delivery_id', '=', id)
        .execute();
      expect(attempts).toEqual([{ response_snippet: 'ok\ufffd\ufffddone' }]);
      // Its workflow has ended: no attempt can follow.
      await service.deps.temporal!.client.workflow.getHandle(webhookWorkflowId(id)).result();
      expect(binary.requests).toHaveLength(1);
    } finally {
      await binary.close();
    }
  });

  it('sends a test event once per Idempotency-Key, committed before the answer waits for it', async () => {
    const headers = { ...merchant.headers, 'idempotency-key': `test-event-${productId}` };
    const before = endpoint.requests.length;
    const path = `/api/v1/products/${productId}/webhook_test_events`;
    const first = await service.request('POST', path, { headers, json: { event: 'refund.updated' } });
    expect(first.status, first.text).toBe(200);
    // The answer carries the first attempt: the worker saw the delivery while the request waited.
    expect(first.body.webhook_delivery.attempts[0]).toMatchObject({ attempt: 1, status_code: 200 });
    const retried = await service.request('POST', path, { headers, json: { event: 'refund.updated' } });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    const other = await service.request('POST', path, {
      headers,
      json: { event: 'resolved_payment.created' },
    });
    expectError(other, 422, 'idempotency_key_mismatch');
    const arrived = (await endpoint.waitFor(before + 1)).slice(before);
    expect(arrived.map((r) => r.headers['x-webhook-id'])).toEqual([first.body.webhook_delivery.id]);
    // A refused request gives its key back: the same key then sends once it is corrected.
    const fixKey = { ...merchant.headers, 'idempotency-key': `test-event-fixed-${productId}` };
    expectError(
      await service.request('POST', path, { headers: fixKey, json: { event: 'kyc_update' } }),
      422,
      'record_invalid',
    );
    const fixed = await service.request('POST', path, { headers: fixKey, json: { event: 'refund.updated' } });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('redelivers once per Idempotency-Key', async () => {
    const { id } = await paymentWebhook(merchant, productId);
    const headers = { ...merchant.headers, 'idempotency-key': `redeliver-${id}` };
    const before = endpoint.requests.length;
    const first = await service.request('POST', `/api/v1/webhook_deliveries/${id}/redeliver`, { headers });
    const retried = await service.request('POST', `/api/v1/webhook_deliveries/${id}/redeliver`, { headers });
    expect(first.status, first.text).toBe(200);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    const copies = await service.deps.db.kysely
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('redelivery_of', '=', id)
      .execute();
    expect(copies.map((c) => c.id)).toEqual([first.body.webhook_delivery.id]);
    await waitForStatus(first.body.webhook_delivery.id, 'succeeded');
    const arrived = (await endpoint.waitFor(before + 1)).slice(before);
    expect(arrived.map((r) => r.headers['x-webhook-id'])).toEqual([first.body.webhook_delivery.id]);
  });

  it('creates the first delivery of an event once', async () => {
    const { id, payload } = await paymentWebhook(merchant, productId);
    const row = await service.deps.db.kysely
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.event_type).toBe(webhookEvents.resolvedPaymentCreated);
    const again = await createWebhookDelivery(service.deps.db.kysely, service.deps.secrets, {
      merchantId: merchant.merchantId,
      eventType: webhookEvents.resolvedPaymentCreated,
      subjectId: row.subject_id,
      productId,
      url: row.url,
      payload: () => `${payload} `,
    });
    expect(again.id).toBe(id);
    expect(again.payload).toBe(row.payload);
    // The row holds the body sealed, without the product secret, which is put back for the request: the
    // bytes are the event's.
    expect(row.payload).not.toContain('shopper@example.com');
    expect(service.deps.secrets.open(row.payload)).toBe(
      payload.replace(/"product_secret":"[^"]+"/, '"product_secret":null'),
    );
    expect(await webhookRequestBody(service.deps.db.kysely, service.deps.secrets, row)).toBe(payload);
  });

  it('never shows another merchant’s deliveries, nor lets them redeliver', async () => {
    const { id } = await paymentWebhook(merchant, productId);
    const intruder = await service.createMerchant();
    expectError(await listDeliveries(intruder, productId), 404, 'record_not_found');
    expectError(
      await service.request('POST', `/api/v1/webhook_deliveries/${id}/redeliver`, {
        headers: intruder.headers,
      }),
      404,
      'record_not_found',
    );
    const theirProduct = await createProduct(intruder);
    const { id: theirDelivery } = await paymentWebhook(intruder, theirProduct);
    expectError(
      await service.request('POST', `/api/v1/webhook_deliveries/${theirDelivery}/redeliver`, {
        headers: merchant.headers,
      }),
      404,
      'record_not_found',
    );
    expectError(await listDeliveries(merchant, theirProduct), 404, 'record_not_found');

    // Another wallet of the same merchant sees only its own products' deliveries, as with products.
    const wallet = randomAddress();
    await service.deps.db.kysely
      .insertInto('merchant_addresses')
      .values({ id: randomUUID(), merchant_id: merchant.merchantId, address: wallet, created_at: new Date() })
      .execute();
    const sibling = { ...merchant, address: wallet, headers: { ...merchant.headers, 'x-address': wallet } };
    expectError(await listDeliveries(sibling, productId), 404, 'record_not_found');
    expectError(
      await service.request('POST', `/api/v1/webhook_deliveries/${id}/redeliver`, {
        headers: sibling.headers,
      }),
      404,
      'record_not_found',
    );
  });

  it('answers bad input with the one error shape', async () => {
    expectError(
      await service.request('POST', `/api/v1/webhook_deliveries/${randomUUID()}/redeliver`, {
        headers: merchant.headers,
      }),
      404,
      'record_not_found',
    );
    expectError(
      await service.request('POST', '/api/v1/webhook_deliveries/not-a-uuid/redeliver', {
        headers: merchant.headers,
      }),
      404,
      'record_not_found',
    );
    expectError(await listDeliveries(merchant, randomUUID()), 404, 'record_not_found');
    expectError(await listDeliveries(merchant, 'nope'), 404, 'record_not_found');
    for (const [method, path] of [
      ['GET', '/api/v1/webhook_secret'],
      ['POST', '/api/v1/webhook_secret/rotate'],
      ['GET', `/api/v1/products/${productId}/webhook_deliveries`],
      ['POST', `/api/v1/webhook_deliveries/${randomUUID()}/redeliver`],
    ] as const) {
      const noAuth = await service.request(method, path, { headers: { 'x-address': merchant.address } });
      expectError(noAuth, 401, 'unauthorized');
      const noWallet = await service.request(method, path, {
        headers: { authorization: merchant.headers.authorization! },
      });
      expectError(noWallet, 400, 'parameter_missing');
    }
    expectError(
      await service.request('DELETE', '/api/v1/webhook_secret', { headers: merchant.headers }),
      405,
      'method_not_allowed',
    );
  });

  it('keeps the secret out of every other response and out of the logs', async () => {
    const { secret } = (await service.request('GET', '/api/v1/webhook_secret', { headers: merchant.headers }))
      .body.webhook_secret;
    const others = await Promise.all([
      service.request('GET', '/api/v1/products', { headers: merchant.headers }),
      listDeliveries(),
      service.request('GET', `/api/v1/products/${productId}/resolved_payments`, {
        headers: merchant.headers,
      }),
      service.request('GET', '/openapi.json'),
      service.request('GET', '/health'),
    ]);
    for (const res of others) expect(res.text).not.toContain(secret);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain('whsec_');
  });
});

describe.skipIf(databaseUnavailable())('webhooks without Temporal', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('takes a redelivery and keeps its start for the workflow service', async () => {
    const merchant = await service.createMerchant();
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: { product: { name: 'Offline', email: 'o@example.com', token: usdc } },
    });
    const db = service.deps.db.kysely;
    const delivery = await createWebhookDelivery(db, service.deps.secrets, {
      merchantId: merchant.merchantId,
      eventType: 'resolved_payment.created',
      subjectId: randomUUID(),
      productId: product.body.product.id,
      url: 'https://shop.example/hooks',
      payload: () => '{}',
    });
    const res = await service.request('POST', `/api/v1/webhook_deliveries/${delivery.id}/redeliver`, {
      headers: merchant.headers,
    });
    expect(res.status, res.text).toBe(200);
    const redelivery = res.body.webhook_delivery.id as string;
    const rows = await db.selectFrom('webhook_deliveries').select('id').orderBy('created_at').execute();
    expect(rows.map((r) => r.id)).toEqual([delivery.id, redelivery]);
    // The delivery's start waits in the outbox, made once a workflow service is there.
    const calls = await db.selectFrom('workflow_calls').selectAll().where('taken_at', 'is', null).execute();
    expect(calls.map((c) => [c.kind, c.workflow_id, c.call.args])).toEqual([
      ['start', `webhook-${redelivery}`, [{ deliveryId: redelivery }]],
    ]);
  });
});

describe.skipIf(databaseUnavailable())('webhook targets where private addresses are not allowed', () => {
  let service: TestService;
  let merchant: TestMerchant;

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' } });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const createProduct = (webhookUrl: string) =>
    service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Hooked',
          email: 'h@example.com',
          token: usdc,
          send_webhook: true,
          webhook_url: webhookUrl,
        },
      },
    });

  it.each([
    'http://127.0.0.1:8080/hooks',
    'http://localhost/hooks',
    'http://10.1.2.3/hooks',
    'http://192.168.0.10/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hooks',
    'http://[::ffff:127.0.0.1]/hooks',
  ])('refuses a product whose webhook_url is %s', async (url) => {
    const res = await createProduct(url);
    expectError(res, 422, 'record_invalid');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'product.webhook_url' })]);
  });

  it('accepts a public webhook_url', async () => {
    const res = await createProduct('https://shop.example/hooks');
    expect(res.status, res.text).toBe(200);
    expect(res.body.product.webhook_url).toBe('https://shop.example/hooks');
  });

  it('refuses an account webhook endpoint on a private address, and takes a public one', async () => {
    const refused = await service.request('PUT', '/webhook_endpoint', {
      headers: merchant.headers,
      json: { webhook_endpoint: { url: 'http://10.0.0.7/events' } },
    });
    expectError(refused, 422, 'record_invalid');
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'webhook_endpoint.url' })]);
    const taken = await service.request('PUT', '/webhook_endpoint', {
      headers: merchant.headers,
      json: { webhook_endpoint: { url: 'https://shop.example/events' } },
    });
    expect(taken.status, taken.text).toBe(200);
  });
});

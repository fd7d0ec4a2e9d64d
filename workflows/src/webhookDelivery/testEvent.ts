/**
 * A test event: a sample of one event type sent to a product's `webhook_url` on the merchant's request, signed
 * like real ones and marked `X-Test-Event: true`. It is an ordinary delivery (logged, retried, redeliverable),
 * handed to Temporal at once rather than after the request, since the caller waits for its first attempt to
 * answer with what the receiver said.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, webhookEvents } from '@checkout/core';
import {
  createWebhookDelivery,
  type Database,
  findWebhookDeliveryWithAttempts,
  inTransaction,
  type NewWebhookDelivery,
  type ProductWithAddress,
  type SecretBox,
  testEventSubject,
  type WebhookDeliveryWithAttempts,
  webhookEnvelope,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import type { WorkflowCallDispatcher } from '../handOver/dispatcher.ts';
import { queueDeliveryStart } from './start.ts';
import { type ProductTestEvent, testEventPayload } from './testEventSamples.ts';

const bareEvents: readonly string[] = [
  webhookEvents.resolvedPaymentCreated,
  webhookEvents.resolvedPaymentUpdated,
  webhookEvents.resolvedPaymentReversed,
];

/** A request for a test event: which, how long to wait for its first attempt, and who hands it to Temporal. */
export interface TestEventRequest<E extends string> {
  event: E;
  waitMs: number;
  dispatcher: Pick<WorkflowCallDispatcher, 'dispatch'>;
}

/**
 * Queues a sample `event` for `product` and waits, at most `waitMs`, for its first attempt; answers the
 * delivery as it then stands (with no attempt when the receiver had not answered yet).
 */
export async function sendProductTestEvent(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: TestEventRequest<ProductTestEvent> & { product: ProductWithAddress },
): Promise<WebhookDeliveryWithAttempts> {
  const { product, event } = input;
  const url = product.webhook_url;
  if (!url) {
    throw new ApiError('conflict', 'The product has no webhook_url to send a test event to', {
      errors: [{ path: 'webhook_url', message: 'is not set on this product' }],
    });
  }
  const ids = { subject: randomUUID(), other: randomUUID() };
  const payload = testEventPayload(event, product, ids, new Date());
  return sendTestDelivery(db, secrets, input, {
    merchantId: product.merchant_id,
    eventType: event,
    subjectId: `${testEventSubject}:${ids.subject}`,
    productId: product.id,
    url,
    payload: (stamp) =>
      bareEvents.includes(event) ? JSON.stringify(payload) : webhookEnvelope(event, stamp, payload),
  });
}

/**
 * Records a test event's delivery and its workflow's start, hands it to Temporal at once and waits, at most
 * `waitMs`, for its first attempt (the product's and the account's test events alike).
 */
export async function sendTestDelivery(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: { waitMs: number; dispatcher: Pick<WorkflowCallDispatcher, 'dispatch'> },
  delivery: NewWebhookDelivery,
): Promise<WebhookDeliveryWithAttempts> {
  const { row, call } = await inTransaction(db, async (trx) => {
    const created = await createWebhookDelivery(trx, secrets, delivery);
    return { row: created, call: await queueDeliveryStart(trx, created.id, created) };
  });
  // A call Temporal does not take now is left to the hand-over's sweep, like any other.
  await input.dispatcher.dispatch([call]).catch(() => undefined);
  return firstAttemptOf(db, row.id, input.waitMs);
}

/** The delivery once its first attempt is recorded, or as it stands when `waitMs` has passed. */
async function firstAttemptOf(
  db: Kysely<Database>,
  deliveryId: string,
  waitMs: number,
): Promise<WebhookDeliveryWithAttempts> {
  const until = Date.now() + waitMs;
  for (;;) {
    const delivery = await findWebhookDeliveryWithAttempts(db, deliveryId);
    if (delivery.attempts.length > 0 || Date.now() >= until) return delivery;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

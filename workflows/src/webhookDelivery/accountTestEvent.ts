/**
 * An account test event: a sample `kyc_update`, `payment_detail_update`, `onramp_update`, `offramp_update`
 * or `quote_update` (testEventSamples.ts) sent to the account's webhook endpoint (`PUT /webhook_endpoint`)
 * on the merchant's request, signed like real ones and marked `X-Test-Event: true`. Like a product's test
 * event (testEvent.ts), it is an ordinary delivery, handed to Temporal at once, and the caller waits for its
 * first attempt.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '@checkout/core';
import {
  type Database,
  findAccountWebhookEndpoint,
  type SecretBox,
  testEventSubject,
  type WebhookDeliveryWithAttempts,
  webhookEnvelope,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { sendTestDelivery, type TestEventRequest } from './testEvent.ts';
import { type AccountTestEvent, accountTestPayload } from './testEventSamples.ts';

/**
 * Queues a sample `event` to the merchant's account endpoint and waits, at most `waitMs`, for its first
 * attempt; a merchant without an endpoint gets a 409 naming it.
 */
export async function sendAccountTestEvent(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: TestEventRequest<AccountTestEvent> & { merchantId: string },
): Promise<WebhookDeliveryWithAttempts> {
  const { merchantId, event } = input;
  const endpoint = await findAccountWebhookEndpoint(db, merchantId);
  if (!endpoint) {
    throw new ApiError('conflict', 'The account has no webhook endpoint to send a test event to', {
      errors: [{ path: 'webhook_endpoint', message: 'is not set (PUT /webhook_endpoint)' }],
    });
  }
  const subject = randomUUID();
  const payload = accountTestPayload(event, subject, randomUUID());
  return sendTestDelivery(db, secrets, input, {
    merchantId,
    eventType: event,
    subjectId: `${testEventSubject}:${subject}`,
    url: endpoint.url,
    payload: (stamp) => webhookEnvelope(event, stamp, payload),
  });
}

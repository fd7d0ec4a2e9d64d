/**
 * An account test event: a sample `kyc_update` or `payment_detail_update` sent to the account's webhook
 * endpoint (`PUT /webhook_endpoint`) on the merchant's request, signed like real ones and marked
 * `X-Test-Event: true`. Like a product's test event (testEvent.ts), it is an ordinary delivery, handed to
 * Temporal at once, and the caller waits for its first attempt.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, type accountTestEvents, type PaymentDetail, type User } from '@checkout/core';
import {
  type Database,
  findAccountWebhookEndpoint,
  type SecretBox,
  testEventSubject,
  type WebhookDeliveryWithAttempts,
  webhookEnvelope,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import type { WorkflowCallDispatcher } from '../handOver/dispatcher.ts';
import { sendTestDelivery } from './testEvent.ts';

/** An account event a test event imitates. */
type AccountTestEvent = (typeof accountTestEvents)[number];

/**
 * Queues a sample `event` to the merchant's account endpoint and waits, at most `waitMs`, for its first
 * attempt; a merchant without an endpoint gets a 409 naming it.
 */
export async function sendAccountTestEvent(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: {
    merchantId: string;
    event: AccountTestEvent;
    waitMs: number;
    dispatcher: Pick<WorkflowCallDispatcher, 'dispatch'>;
  },
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

/** The body of a sample account event: a user or a payment detail as real ones show them, made up. */
function accountTestPayload(event: AccountTestEvent, id: string, userId: string): unknown {
  if (event === 'kyc_update') return { user: sampleUser(id) };
  return { payment_detail: samplePaymentDetail(id, userId) };
}

function sampleUser(id: string): User {
  const clear = { status: 'approved', swift_status: 'approved' } as const;
  return {
    id,
    beneficiary_type: 'individual',
    first_name: 'Test',
    last_name: 'Customer',
    company_name: null,
    email: 'customer@example.com',
    date_of_birth: '12/12/1985',
    address_line1: '1 Test Street',
    address_line2: null,
    city: 'Lisbon',
    state: 'Lisboa',
    postcode: '1000-001',
    country: 'PT',
    ssn: null,
    website: null,
    source_of_funds: null,
    business_description: null,
    kyc: {
      general: { status: 'approved', moderation_comment: null },
      eur: clear,
      usd: clear,
      ars: { status: 'initiated', swift_status: 'initiated' },
      status_message: null,
    },
  };
}

function samplePaymentDetail(id: string, userId: string): PaymentDetail {
  return {
    id,
    user_id: userId,
    bank_name: 'Test Bank',
    account_name: 'Test Customer',
    iban: 'PT50000201231234567890154',
    swift_bic: 'TESTPTPL',
    beneficiary_type: 'individual',
    company_number: null,
    date_of_birth: null,
    account_number: null,
    routing_number: null,
    sort_code: null,
    document_number: null,
    account_type: null,
    currency: 'EUR',
    address_line1: null,
    address_line2: null,
    city: null,
    state: null,
    postal_code: null,
    country: 'PT',
    status: 'approved',
    rails: 'local',
  };
}

/**
 * An account test event: a sample `kyc_update`, `payment_detail_update`, `onramp_update`, `offramp_update`
 * or `quote_update` sent to the account's webhook endpoint (`PUT /webhook_endpoint`) on the merchant's
 * request, signed like real ones and marked `X-Test-Event: true`. Like a product's test event (testEvent.ts), it is an ordinary delivery, handed to
 * Temporal at once, and the caller waits for its first attempt.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, type accountTestEvents, type PaymentDetail, type User } from '@checkout/core';
import {
  type Database,
  findAccountWebhookEndpoint,
  type OfframpView,
  type OnrampView,
  type presentQuote,
  type SecretBox,
  testEventSubject,
  type WebhookDeliveryWithAttempts,
  webhookEnvelope,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { sendTestDelivery, type TestEventRequest } from './testEvent.ts';

/** An account event a test event imitates. */
type AccountTestEvent = (typeof accountTestEvents)[number];

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

/** The body of a sample account event: the record as real events of its type show it, made up. */
export function accountTestPayload(event: AccountTestEvent, id: string, userId: string): unknown {
  switch (event) {
    case 'kyc_update':
      return { user: sampleUser(id) };
    case 'payment_detail_update':
      return { payment_detail: samplePaymentDetail(id, userId) };
    case 'onramp_update':
      return { onramp: sampleOnramp(id, userId) };
    case 'offramp_update':
      return { offramp: sampleOfframp(id, userId, randomUUID()) };
    case 'quote_update':
      return sampleQuote(id, userId);
  }
}

/** A sample address: no key holds it. */
const sampleAddress = '0x000000000000000000000000000000000000dEaD';

function sampleOnramp(id: string, userId: string): OnrampView {
  return {
    id,
    user_id: userId,
    status: 'crypto_sent',
    status_message: null,
    crypto_currency: 'usdc',
    crypto_rails: 'polygon',
    destination_amount: 1000,
    fee: 4,
    destination_address: sampleAddress,
    fiat_currency: 'usd',
    fiat_rails: 'ach_push',
    deposit_amount: 1004,
    received_amount: 1004,
    tx_id: `0x${'ab'.repeat(32)}`,
    refunds: [],
  };
}

function sampleOfframp(id: string, userId: string, quoteId: string): OfframpView {
  return {
    id,
    user_id: userId,
    payment_detail_id: randomUUID(),
    quote_id: quoteId,
    status: 'fiat_sent',
    status_message: null,
    destination_amount: 920,
    destination_currency: 'eur',
    reference: 'TEST-PAYOUT',
    rails: 'sepa',
    rate: 0.92,
    fee: 2,
    supporting_document: null,
    metadata: null,
    refund: null,
  };
}

function sampleQuote(id: string, userId: string): ReturnType<typeof presentQuote> {
  const offramp = sampleOfframp(randomUUID(), userId, id);
  return {
    quote: {
      id,
      user_id: userId,
      deposit_token: 'usdc',
      deposit_token_chain: 'ethereum',
      deposit_token_amount: 1002,
      fees: 2,
      expiry: 1_800_000_000,
      executed: true,
      rates: { eur: 0.92 },
      refunds: [
        {
          reason: 'excess',
          status: 'sent',
          address: sampleAddress,
          amount: 5,
          deposit_tx_id: `0x${'cd'.repeat(32)}`,
          tx_id: `0x${'ef'.repeat(32)}`,
        },
      ],
    },
    deposit_address: { adddress: sampleAddress, blockchain: 'ethereum' },
    crypto_transfer: { tx_id: `0x${'cd'.repeat(32)}`, blockchain: 'ethereum', network: 'mainnet' },
    offramps: [offramp],
  };
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

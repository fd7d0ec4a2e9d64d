/**
 * The sample bodies of test events: each event type's real shape. A product's are filled from the product
 * they are sent for, with fresh ids, `is_test: true` and no real transaction (a zero hash); an account's are
 * made-up records (a user, a payment detail, an onramp, an offramp, a quote).
 */
import { randomUUID } from 'node:crypto';
import type {
  accountTestEvents,
  PaymentDetail,
  productTestEvents,
  Refund,
  ResolvedPayment,
  UnmatchedTransfer,
  User,
} from '@checkout/core';
import {
  type OfframpView,
  type OnrampView,
  type ProductWithAddress,
  type presentQuote,
  storedTokenOf,
} from '@checkout/db';
import { zeroHash } from 'viem';

export type ProductTestEvent = (typeof productTestEvents)[number];
/** An account event a test event imitates. */
export type AccountTestEvent = (typeof accountTestEvents)[number];

/** The sender of every sample: a well-known placeholder wallet, never a real payer. */
const sampleSender = '0x000000000000000000000000000000000000dEaD';

/** The payload of `event` for `product` (what the envelope's `payload` holds, or the resolved payment itself). */
export function testEventPayload(
  event: ProductTestEvent,
  product: ProductWithAddress,
  ids: { subject: string; other: string },
  now: Date,
): unknown {
  const token = storedTokenOf(product);
  const at = now.toISOString();
  switch (event) {
    case 'resolved_payment.created':
    case 'resolved_payment.updated':
    case 'resolved_payment.reversed':
      return resolvedPayment(product, ids, at);
    case 'refund.updated':
      return { refund: refund(product, ids, at) };
    case 'unmatched_transfer.created':
    case 'unmatched_transfer.updated':
      return {
        unmatched_transfer: {
          id: ids.subject,
          status: 'open',
          kind: 'unexpected',
          chain_id: product.chain_id,
          token,
          is_test: true,
          amount: '10',
          sender_address: sampleSender,
          receiving_address: product.address,
          deposit_address: null,
          deposit_session_id: null,
          tx_hash: zeroHash,
          log_index: 0,
          block_number: '0',
          product_id: product.id,
          near_sessions: [],
          resolved_payment_id: null,
          expected_payment_id: null,
          note: null,
          created_at: at,
          updated_at: at,
        } satisfies UnmatchedTransfer,
      };
  }
}

function resolvedPayment(
  product: ProductWithAddress,
  ids: { subject: string; other: string },
  at: string,
): ResolvedPayment {
  const token = storedTokenOf(product);
  return {
    is_test: true,
    id: ids.subject,
    product_id: product.id,
    expected_payment_id: ids.other,
    // Put back as the product's real secret when sent, as on every resolved payment's webhook.
    product_secret: '',
    slug: product.slug,
    dollar_amount: '10.00',
    metadata: null,
    user: { email: 'customer@example.com', custom_fields: {} },
    payment: {
      expected_token: token,
      received_token: token,
      expected_token_amount: '10',
      received_token_amount: '10',
      amount_difference: '0',
      exception_status: null,
      receiving_address: product.address,
      sender_address: sampleSender,
      tx_id: zeroHash,
      tx_success: true,
      tx_failure: false,
      swapped: false,
      refunded_amount: '0',
      sweep_gas_wei: null,
      created_at: at,
    },
  };
}

function refund(product: ProductWithAddress, ids: { subject: string; other: string }, at: string): Refund {
  return {
    id: ids.subject,
    status: 'awaiting_address',
    resolved_payment_id: ids.other,
    unmatched_transfer_id: null,
    product_id: product.id,
    chain_id: product.chain_id,
    token: storedTokenOf(product),
    is_test: true,
    amount: '1',
    amount_base_units: (10n ** BigInt(product.token_decimals)).toString(),
    reason: 'A test event',
    refund_address: null,
    paid_amount: '0',
    amount_due: '1',
    overpaid_amount: null,
    address_source: null,
    from_address: product.address,
    claim_url: null,
    claim_expires_at: at,
    pay_url: null,
    payment_request: null,
    tx_hash: null,
    cancel_reason: null,
    sent_at: null,
    confirmed_at: null,
    created_at: at,
    updated_at: at,
  };
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
    destination_address: sampleSender,
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
          address: sampleSender,
          amount: 5,
          deposit_tx_id: `0x${'cd'.repeat(32)}`,
          tx_id: `0x${'ef'.repeat(32)}`,
        },
      ],
    },
    deposit_address: { adddress: sampleSender, blockchain: 'ethereum' },
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

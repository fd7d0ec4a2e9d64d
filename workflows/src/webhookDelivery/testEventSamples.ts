/**
 * The sample bodies of test events: each event type's real shape, filled from the product it is sent for, with
 * fresh ids, `is_test: true` and no real transaction (a zero hash).
 */
import type { productTestEvents, Refund, ResolvedPayment, UnmatchedTransfer } from '@checkout/core';
import { type ProductWithAddress, storedTokenOf } from '@checkout/db';
import { zeroHash } from 'viem';

export type ProductTestEvent = (typeof productTestEvents)[number];

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

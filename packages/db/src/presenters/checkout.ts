/** Expected payments and checkout sessions as their wire shapes. */
import {
  type CheckoutSession,
  type ExpectedPayment,
  formatUnits,
  normalizeDecimal,
  paymentUri,
  referencedTransferData,
} from '@checkout/core';
import { getAddress } from 'viem';
import type { CheckoutSessionRow, ExpectedPaymentRow } from '../checkoutSchema.ts';

/** The hosted checkout URL of an expected payment. */
export function checkoutUrl(publicBaseUrl: string, slug: string, expectedPaymentId: string): string {
  return `${publicBaseUrl}/checkout/${encodeURIComponent(slug)}?expected_payment=${expectedPaymentId}`;
}

/** An expected payment for its merchant. */
export function presentExpectedPayment(row: ExpectedPaymentRow, url: string): ExpectedPayment {
  return {
    id: row.id,
    product_id: row.product_id,
    dollar_amount: normalizeDecimal(row.dollar_amount, 2),
    metadata: row.metadata,
    customer_email: row.customer_email,
    status: row.status,
    checkout_url: url,
    resolved_payment_id: row.resolved_payment_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A checkout session for the shopper's widget, with the unmatched transfers that arrived near it. */
export function presentSession(
  row: CheckoutSessionRow,
  dollarAmount: string,
  unmatched: CheckoutSession['unmatched_transfers'],
): CheckoutSession {
  return {
    id: row.id,
    expected_payment_id: row.expected_payment_id,
    status: row.status,
    dollar_amount: normalizeDecimal(dollarAmount, 2),
    expected_token: row.expected_token,
    expected_token_amount: formatUnits(BigInt(row.expected_token_amount), row.expected_token.decimal_count),
    payment_token_address: row.payment_token_address,
    receiving_address: row.receiving_address,
    sender_address: row.sender_address,
    reference: `0x${row.reference}`,
    transaction:
      row.payment_token_address.toLowerCase() === row.expected_token.address.toLowerCase()
        ? {
            chain_id: row.chain_id,
            to: row.expected_token.address,
            data: referencedTransferData({
              // A session with a deposit address is paid there, whichever way.
              to: row.deposit_address ?? row.receiving_address,
              amount: BigInt(row.expected_token_amount),
              reference: row.reference,
            }),
            value: '0',
          }
        : null,
    deposit_address: row.deposit_address ? getAddress(row.deposit_address) : null,
    payment_uri:
      row.sender_address !== null || (row.amount_tail === null && row.deposit_address === null)
        ? null
        : paymentUri({
            tokenAddress: row.expected_token.address,
            chainId: row.chain_id,
            to: row.deposit_address ? getAddress(row.deposit_address) : row.receiving_address,
            amount: BigInt(row.expected_token_amount),
          }),
    tx_hash: row.tx_hash,
    confirmations: row.confirmations,
    required_confirmations: row.required_confirmations,
    resolved_payment_id: row.resolved_payment_id,
    late: row.late,
    error: row.error,
    unmatched_transfers: unmatched,
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

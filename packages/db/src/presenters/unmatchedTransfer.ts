/** Unmatched transfers as their wire shape. */
import { formatUnits, type UnmatchedTransfer } from '@checkout/core';
import { getAddress } from 'viem';
import type { CheckoutSessionRow } from '../checkoutSchema.ts';
import type { UnmatchedTransferRow } from '../unmatchedSchema.ts';

/** An unmatched transfer with the sessions it arrived near. */
export function presentUnmatchedTransfer(
  row: UnmatchedTransferRow,
  near: readonly CheckoutSessionRow[],
): UnmatchedTransfer {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    chain_id: row.chain_id,
    token: row.token,
    is_test: row.token.network === 'testnet',
    amount: formatUnits(BigInt(row.amount), row.token.decimal_count),
    sender_address: getAddress(row.sender_address),
    receiving_address: getAddress(row.receiving_address),
    deposit_address: row.deposit_address ? getAddress(row.deposit_address) : null,
    deposit_session_id: row.deposit_session_id,
    tx_hash: row.tx_hash,
    log_index: row.log_index,
    block_number: row.block_number,
    product_id: row.product_id,
    near_sessions: near.map((s) => ({
      session_id: s.id,
      expected_payment_id: s.expected_payment_id,
      product_id: s.product_id,
      status: s.status,
      expected_token_amount: formatUnits(BigInt(s.expected_token_amount), s.expected_token.decimal_count),
      sender_address: s.sender_address,
    })),
    resolved_payment_id: row.resolved_payment_id,
    expected_payment_id: row.expected_payment_id,
    note: row.note,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

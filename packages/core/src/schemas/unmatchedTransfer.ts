/** Money that fits no order: unmatched transfers as the merchant API and webhooks show them (wire shapes). */
import { z } from 'zod';
import { exactlyOneOf, namedObject, Timestamp, timeWindow, Uuid } from './common.ts';
import { PaymentToken } from './product.ts';

/** Why a transfer fits no order. */
const unmatchedTransferKinds = ['duplicate', 'closed_attempt', 'wrong_amount', 'unexpected'] as const;
/** What the merchant did with it, or `reversed`: a reorganisation took its transaction off the chain. */
const unmatchedTransferStatuses = ['open', 'attached', 'refunded', 'dismissed', 'reversed'] as const;

/** A session a transfer arrived near: its sender's, or one whose amount it nearly was. */
const NearSession = namedObject('NearSession', {
  session_id: Uuid,
  expected_payment_id: Uuid,
  product_id: Uuid,
  status: z.string(),
  /** The session's amount, in token units. */
  expected_token_amount: z.string(),
  sender_address: z.string().nullable(),
});

/** A token transfer into a receiving address that no checkout took. */
export const UnmatchedTransfer = namedObject('UnmatchedTransfer', {
  id: Uuid,
  status: z.enum(unmatchedTransferStatuses),
  kind: z.enum(unmatchedTransferKinds),
  chain_id: z.number().int(),
  token: PaymentToken,
  /** True on a test network: no real money moved (as a Resolved Payment's `is_test`). */
  is_test: z.boolean(),
  /** What arrived, in token units (a decimal string). */
  amount: z.string(),
  /** The transaction's sender (the payer of a swap). */
  sender_address: z.string(),
  /** The merchant's receiving address it reached: directly, or swept there from `deposit_address`. */
  receiving_address: z.string(),
  /** The session's deposit address it arrived at (its funds are swept to `receiving_address`), or null. */
  deposit_address: z.string().nullable(),
  /** The checkout session whose deposit address it arrived at, or null. */
  deposit_session_id: Uuid.nullable(),
  tx_hash: z.string(),
  log_index: z.number().int(),
  block_number: z.string(),
  /** The product of the nearest session, or null. */
  product_id: Uuid.nullable(),
  near_sessions: z.array(NearSession),
  /** The order it duplicates, or the one it was attached to as a top-up. */
  resolved_payment_id: Uuid.nullable(),
  /** The expected payment it was attached to as its payment. */
  expected_payment_id: Uuid.nullable(),
  note: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type UnmatchedTransfer = z.infer<typeof UnmatchedTransfer>;

export const UnmatchedTransferResponse = namedObject('UnmatchedTransferResponse', {
  unmatched_transfer: UnmatchedTransfer,
});
export const UnmatchedTransferListResponse = namedObject('UnmatchedTransferListResponse', {
  unmatched_transfers: z.array(UnmatchedTransfer),
});

/** Query of GET /api/v1/unmatched_transfers. */
export const UnmatchedTransferQuery = namedObject('UnmatchedTransferQuery', {
  product_id: Uuid.optional(),
  status: z.enum(unmatchedTransferStatuses).optional(),
  ...timeWindow,
});

/** Body of POST /api/v1/unmatched_transfers/:id/attach: exactly one of the two. */
export const UnmatchedTransferAttachBody = z
  .strictObject({
    /** An open expected payment the transfer pays (its checkout records it as its payment). */
    expected_payment_id: Uuid.optional(),
    /** A resolved payment the transfer tops up (same token). */
    resolved_payment_id: Uuid.optional(),
  })
  .superRefine(exactlyOneOf('expected_payment_id', 'resolved_payment_id'))
  .meta({ id: 'UnmatchedTransferAttachBody' });

/** Body of POST /api/v1/unmatched_transfers/:id/dismiss. */
export const UnmatchedTransferDismissBody = namedObject('UnmatchedTransferDismissBody', {
  note: z.string().trim().min(1).max(500),
});

/** How the QR page shows a transfer of another amount that arrived in its session's window. */
export const SessionUnmatchedTransfer = namedObject('SessionUnmatchedTransfer', {
  tx_hash: z.string(),
  amount: z.string(),
  token_symbol: z.string(),
  seen_at: Timestamp,
});

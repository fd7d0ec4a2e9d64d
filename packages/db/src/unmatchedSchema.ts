/** Table types of the money that fits no order: unmatched transfers and the sessions they arrived near. */
import type { Generated, Selectable } from 'kysely';
import type { Json, StoredToken, Timestamp } from './columnTypes.ts';

/** Why a transfer fits no order. */
export type UnmatchedTransferKind =
  /** Its payer's order was paid already: a second payment. */
  | 'duplicate'
  /** Its payer's order was an attempt given up (closed). */
  | 'closed_attempt'
  /** Near an order, but not its amount within the tolerance (e.g. a rounded QR transfer). */
  | 'wrong_amount'
  /** Near no order of its sender. */
  | 'unexpected';

/** What the merchant did with it, or `reversed`: a reorganisation took its transaction off the chain. */
export type UnmatchedTransferStatus = 'open' | 'attached' | 'refunded' | 'dismissed' | 'reversed';

/** A token transfer into a receiving address that no session took (addresses lowercase). */
export interface UnmatchedTransfersTable {
  id: string;
  merchant_id: string;
  /** The product of the nearest session, for filtering; null when none. */
  product_id: string | null;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  /** numeric(20,0). */
  block_number: string;
  /** The hash of the block that holds it (lowercase); null for a transfer recorded before blocks were kept. */
  block_hash: string | null;
  token_address: string;
  /** The token as the registry names it. */
  token: Json<StoredToken>;
  /** Base units, numeric(78,0). */
  amount: string;
  /** The transaction's sender (the payer of a swap). */
  sender_address: string;
  /** The receiving address it reaches: where it arrived, or where the deposit address it arrived at sweeps to. */
  receiving_address: string;
  /** The session's deposit address it arrived at (swept to `receiving_address`), or null. */
  deposit_address: Generated<string | null>;
  /** The session whose deposit address it arrived at, or null. */
  deposit_session_id: Generated<string | null>;
  kind: UnmatchedTransferKind;
  status: UnmatchedTransferStatus;
  /** The order it duplicates, or the resolved payment it was attached to as a top-up. */
  resolved_payment_id: string | null;
  /** The expected payment it was attached to as its payment. */
  expected_payment_id: string | null;
  /** The merchant's note on a dismissal. */
  note: string | null;
  /** Whether the merchant is e-mailed of it (at or above `UNMATCHED_NOTIFY_MIN_AMOUNT`), in a batch. */
  mail_wanted: Generated<boolean>;
  /** The claim key of the e-mail batch that tells of it, once it joined one. */
  mail_batch: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A session an unmatched transfer arrived near (its sender's, or one whose amount it nearly was). */
export interface UnmatchedTransferSessionsTable {
  unmatched_transfer_id: string;
  session_id: string;
}

/** When a recipient of a merchant was last e-mailed a batch of unmatched transfers. */
export interface UnmatchedMailGroupsTable {
  merchant_id: string;
  recipient: string;
  last_batch_at: Timestamp;
}

/** The unmatched-transfer tables, part of the Database. */
export interface UnmatchedTables {
  unmatched_mail_groups: UnmatchedMailGroupsTable;
  unmatched_transfers: UnmatchedTransfersTable;
  unmatched_transfer_sessions: UnmatchedTransferSessionsTable;
}

export type UnmatchedTransferRow = Selectable<UnmatchedTransfersTable>;

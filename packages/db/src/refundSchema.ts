/** Table types of refunds: what the merchant's wallet owes a customer, and whether the chain shows it paid. */
import type { refundStatuses } from '@checkout/core';
import type { Generated, Selectable } from 'kysely';
import type { Json, StoredToken, Timestamp } from './columnTypes.ts';

/** Where a refund stands: the statuses of `Refund` in @checkout/core. */
export type RefundRowStatus = (typeof refundStatuses)[number];

/** One refund of a resolved payment or of an unmatched transfer (addresses lowercase). */
export interface RefundsTable {
  id: string;
  merchant_id: string;
  /** The merchant wallet (receiving address) that pays it. */
  address_id: string;
  product_id: string | null;
  /** Exactly one of the two is set. */
  resolved_payment_id: string | null;
  unmatched_transfer_id: string | null;
  chain_id: number;
  token: Json<StoredToken>;
  token_address: string;
  /** The receiving address that pays it. */
  from_address: string;
  /** Base units, numeric(78,0), positive. */
  amount: string;
  reason: string;
  status: RefundRowStatus;
  /** Why the merchant canceled it, when they said; null otherwise. */
  cancel_reason: Generated<string | null>;
  /** Where it goes; null until the customer claims it. */
  refund_address: string | null;
  address_source: 'merchant' | 'customer' | null;
  /** The customer's e-mail, sealed with the SecretBox; null when none is known. */
  email_ciphertext: string | null;
  /** The customer's receipt language: `en`, `es` or `pt`. */
  locale: string;
  /** SHA-256 (hex) of the claim page's token and of the pay page's token. */
  claim_token_hash: string;
  pay_token_hash: string;
  /** `{"claim":…,"pay":…}` sealed, so the merchant API can show the pages' links again. */
  tokens_ciphertext: string;
  claim_expires_at: Timestamp;
  /**
   * Base units the transfers recorded against it add up to (`refund_transfers`): below `amount` a part
   * payment, above it an overpayment.
   */
  paid_amount: Generated<string>;
  /** The transfer that paid it (the one that completed it), once the chain's watcher saw it. */
  tx_hash: string | null;
  log_index: number | null;
  /** numeric(20,0). */
  block_number: string | null;
  sent_at: Timestamp | null;
  confirmed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * A transfer from a refund's receiving address to its refund address in its token, recorded against it while
 * it was ready to pay, whatever its amount.
 */
export interface RefundTransfersTable {
  chain_id: number;
  /** Lowercase. */
  tx_hash: string;
  log_index: number;
  refund_id: string;
  /** numeric(20,0). */
  block_number: string;
  /** Base units, numeric(78,0). */
  amount: string;
  created_at: Timestamp;
}

/** The refund tables, part of the Database. */
export interface RefundTables {
  refunds: RefundsTable;
  refund_transfers: RefundTransfersTable;
}

export type RefundRow = Selectable<RefundsTable>;

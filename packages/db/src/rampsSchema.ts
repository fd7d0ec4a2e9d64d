/** Table types of the ramps: fiat-to-crypto onramps, quotes with their deposit addresses, and fiat offramps. */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, Timestamp } from './columnTypes.ts';

/** Onramp lifecycle status (see docs/area-b-decisions.md). */
export type OnrampStatusValue =
  | 'initiated'
  | 'held'
  | 'funds_received'
  | 'sending_crypto'
  | 'crypto_sent'
  | 'failed'
  | 'expired';

/** One fiat deposit reported by the bank partner. */
export interface StoredDeposit {
  id: string;
  /** Fiat, exact decimal string. */
  amount: string;
  /** False for a deposit reported after funding or expiry: not credited, returned in full. */
  credited?: boolean;
}

/** Why an onramp returns fiat through the bank partner. */
export type OnrampRefundReason = 'excess' | 'late_deposit' | 'onramp_failed';

/** Fiat an onramp returns to the sending account through the bank partner. */
export interface StoredOnrampRefund {
  /** `<reason>:<deposit id or onramp id>`: the bank partner's idempotency key, so a retry returns once. */
  id: string;
  reason: OnrampRefundReason;
  /** The deposit it returns (part of); null for a failed onramp's whole deposit. */
  deposit_id: string | null;
  /** Fiat, exact decimal string. */
  amount: string;
  status: 'pending' | 'sent' | 'failed';
  /** The bank partner's reference of the return, once sent. */
  reference: string | null;
  /** Why a return failed. */
  message: string | null;
}

export interface OnrampsTable {
  id: string;
  user_id: string;
  merchant_id: string;
  status: OnrampStatusValue;
  status_message: string | null;
  crypto_currency: string;
  crypto_rails: string;
  chain_id: number;
  token_address: string;
  token_decimals: number;
  /** Whether the token's `transfer` returns nothing (USDT-style). */
  token_no_return: boolean;
  /** Fiat-denominated decimals (numeric(20,2)) as exact strings. */
  destination_amount: string;
  fee: string;
  deposit_amount: string;
  received_amount: string;
  deposits: Json<StoredDeposit[]>;
  /** Fiat returned (or to return) through the bank partner. */
  refunds: ColumnType<StoredOnrampRefund[], string | undefined, string>;
  destination_address: string;
  fiat_currency: string;
  fiat_rails: string;
  /** The transfer reference the user must quote; unique. */
  deposit_message: string;
  /** The signed treasury transfer, recorded before its broadcast. */
  tx_hash: string | null;
  tx_serialized: string | null;
  tx_nonce: number | null;
  status_version: Generated<number>;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Quote lifecycle status, kept for search and expiry; the wire shows `executed`. */
export type QuoteStatusValue = 'open' | 'executed' | 'expired' | 'completed';

/** The crypto transfer a quote was executed with. */
export interface StoredCryptoTransfer {
  tx_id: string;
  blockchain: string;
  network: string;
}

export interface QuotesTable {
  id: string;
  user_id: string;
  merchant_id: string;
  status: QuoteStatusValue;
  deposit_token: string;
  deposit_token_chain: string;
  chain_id: number;
  network: string;
  token_address: string;
  token_decimals: number;
  /** HD index of the deposit address: from a sequence, never reused. */
  deposit_index: number;
  deposit_address: string;
  crypto_transfer: Json<StoredCryptoTransfer | null>;
  /** Token base units actually received by the executing transfer (numeric(78,0)). */
  received_amount: string | null;
  /** Who sent the funding tokens (the first transfer's `from`): where refunds go by default. */
  sender_address: string | null;
  /**
   * The block the deposit address is watched from (numeric(20,0)): where the chain's watcher was when the
   * quote was made; null when it had not run yet, until the watcher or the quote's first look sets it.
   * A direct read of the chain (the watcher not covering the address) moves it past what it read.
   */
  deposit_scan_block: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Offramp lifecycle status (research §7). */
export type OfframpStatusValue =
  | 'initiated'
  | 'pending_internal_assessment'
  | 'sending_fiat'
  | 'fiat_sent'
  | 'bounced'
  | 'failed';

export interface OfframpsTable {
  id: string;
  quote_id: string;
  user_id: string;
  merchant_id: string;
  payment_detail_id: string;
  status: OfframpStatusValue;
  status_message: string | null;
  /** Fiat, numeric(20,2). */
  destination_amount: string;
  destination_currency: string;
  rails: string;
  reference: string | null;
  /** Fiat per deposit token, exact decimal string. */
  rate: string;
  /** Fiat, numeric(20,2). */
  fee: string;
  /** Deposit token base units this offramp costs, fee included (numeric(78,0)). */
  token_amount: string;
  /** Deposit token base units of the fee alone (numeric(78,0)). */
  token_fee: string;
  supporting_document_url: string | null;
  metadata: Json<Record<string, unknown> | null>;
  /** How many times the payout was handed to the partner (a resend after a bounce is the second). */
  payout_attempts: Generated<number>;
  /** What the user asked for a bounced payout, until its workflow acts on it. */
  bounce_action: OfframpBounceAction | null;
  /** Refund of the offramp's tokens to the sender (failed payouts): null when none is owed. */
  refund_status: OfframpRefundStatus | null;
  refund_address: string | null;
  /** Deposit tokens refunded, a decimal amount of the quote's token (numeric). */
  refund_amount: string | null;
  /** The signed treasury refund, recorded before its broadcast. */
  refund_tx_hash: string | null;
  refund_tx_serialized: string | null;
  refund_tx_nonce: number | null;
  status_version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What the user asked for a bounced offramp. */
export type OfframpBounceAction = 'resend' | 'refund';

/** Where an offramp's refund stands. */
export type OfframpRefundStatus = 'pending' | 'sent' | 'failed';

/** Why a quote returns tokens that no payout uses. */
export type QuoteRefundReason = 'quote_expired' | 'excess' | 'extra_transfer';

/** Where a refund stands. */
export type RefundStatus = 'pending' | 'sent' | 'failed';

/**
 * Tokens a quote's deposit address received that no payout uses, returned to the sender from the
 * treasury: one row per incoming transaction.
 */
export interface QuoteRefundsTable {
  id: string;
  quote_id: string;
  reason: QuoteRefundReason;
  /** The incoming transaction (lower-case hash) whose tokens are returned (the excess of it, for `excess`). */
  deposit_tx_hash: string;
  /** Token base units (numeric(78,0)). */
  amount: string;
  /** Where the tokens go: the sender of the incoming transfer. */
  address: string;
  status: RefundStatus;
  /** The signed treasury transfer, recorded before its broadcast. */
  tx_hash: string | null;
  tx_serialized: string | null;
  tx_nonce: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A bank partner's deposit notice, stored with the call that hands it to the onramp's workflow. */
export interface OnrampDepositsTable {
  id: string;
  onramp_id: string;
  /** Fiat, numeric(20,2). */
  amount: string;
  created_at: Timestamp;
}

/** The ramp tables, merged into the Database interface. */
export interface RampsTables {
  onramps: OnrampsTable;
  onramp_deposits: OnrampDepositsTable;
  quotes: QuotesTable;
  quote_refunds: QuoteRefundsTable;
  offramps: OfframpsTable;
}

export type OnrampRow = Selectable<OnrampsTable>;
export type QuoteRow = Selectable<QuotesTable>;
export type OfframpRow = Selectable<OfframpsTable>;
export type OnrampDepositRow = Selectable<OnrampDepositsTable>;
export type QuoteRefundRow = Selectable<QuoteRefundsTable>;

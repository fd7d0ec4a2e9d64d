/** Table types of the checkout flow: expected payments, sessions and their transactions. */
import type { Generated, Selectable } from 'kysely';
import type { Json, StoredToken, Timestamp } from './columnTypes.ts';

export interface ExpectedPaymentsTable {
  id: string;
  merchant_id: string;
  product_id: string;
  /** numeric(20,2). */
  dollar_amount: string;
  metadata: Json<Record<string, unknown> | null>;
  customer_email: string | null;
  /** `merchant` (created through the API) or `shopper` (open-amount checkout). */
  source: 'merchant' | 'shopper';
  status: 'open' | 'confirming' | 'paid' | 'failed' | 'expired' | 'closed';
  resolved_payment_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CheckoutSessionsTable {
  id: string;
  expected_payment_id: string;
  product_id: string;
  merchant_id: string;
  email: string;
  custom_fields: Json<Record<string, string>>;
  /** The payer's wallet; null for a session opened without one (paid from another device). */
  sender_address: string | null;
  payment_token_address: string;
  chain_id: number;
  expected_token: Json<StoredToken>;
  /** Base units, numeric(78,0). */
  expected_token_amount: string;
  receiving_address: string;
  /** 32 random bytes (64 lowercase hex digits, no `0x`) that a transaction paying the session carries in its input. */
  reference: string;
  /** SHA-256 (hex) of the secret given to the session's opener; only its holder changes the session. */
  client_secret_hash: string | null;
  /**
   * Base units added to the price to make a session's amount unique among the open sessions paying the
   * same address and token (numeric(78,0)); null when the session has no reserved amount. While set, a
   * transfer of exactly `expected_token_amount` pays the session whoever sends it.
   */
  amount_tail: string | null;
  /**
   * A session paid from another device on a chain in `deposit_address` mode: the CREATE2 address of its
   * forwarder (lowercase), which only ever pays `receiving_address`. A transfer of the session's token into
   * it pays the session, whatever its amount. Null otherwise.
   */
  deposit_address: string | null;
  /** The shopper's language as the element reported it (BCP 47, e.g. `pt-BR`); their receipt is written in it. */
  locale: string | null;
  status: 'awaiting_payment' | 'confirming' | 'resolved' | 'failed' | 'expired' | 'closed';
  tx_hash: string | null;
  confirmations: Generated<number>;
  required_confirmations: number;
  resolved_payment_id: string | null;
  late: Generated<boolean>;
  error: string | null;
  /** Block number when the session opened: where log scans start. numeric(20,0). */
  start_block: string;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CheckoutTransactionsTable {
  chain_id: number;
  tx_hash: string;
  /** The session the hash pays; null when it was recorded as an unmatched transfer (no session took it). */
  session_id: string | null;
  created_at: Timestamp;
  /** False while the claim waits to reach the session's workflow (Temporal or its workers were away). */
  handed_over: Generated<boolean>;
}

/**
 * An amount reserved for one session: a transfer of exactly `amount` of the token into the address on the
 * chain belongs to that session, whoever sends it, until `reserved_until` (the end of its scan window) or
 * until the session resolves. Addresses are stored lowercase.
 */
export interface CheckoutPaymentAmountsTable {
  chain_id: number;
  receiving_address: string;
  token_address: string;
  /** Base units, numeric(78,0). */
  amount: string;
  session_id: string;
  reserved_until: Timestamp;
}

/** Where a chain's watcher got to: the next block to read and the hash of the last one read. */
export interface ChainWatchTable {
  chain_id: number;
  /** numeric(20,0). */
  next_block: string;
  last_block_hash: string | null;
  /** The chain's head at the last tick, numeric(20,0). */
  head_block: string;
  updated_at: Timestamp;
}

/** How a chain's watcher is doing: the provider's head, the newest block read, its last tick's failure. */
export interface ChainWatchStatusTable {
  chain_id: number;
  /** The provider's head when last asked, numeric(20,0). */
  head_block: string | null;
  head_at: Timestamp | null;
  /** The newest block whose logs were read (the unconfirmed tail is read again until confirmed). */
  read_to_block: string | null;
  /** Since when ticks fail; null when the last one succeeded. */
  failing_since: Timestamp | null;
  /** The failure's kind (rate_limited, log_range, timeout, unreachable, …) and its message, URLs redacted. */
  error_kind: string | null;
  error_message: string | null;
  error_at: Timestamp | null;
}

/** A receiving address the watcher covers: every transfer into it from `covered_from` on is recorded. */
export interface ChainWatchAddressesTable {
  chain_id: number;
  /** Lowercase. */
  address: string;
  /** numeric(20,0). */
  covered_from: string;
}

/** A token transfer into a watched address, as the watcher read it (addresses lowercase). */
export interface ChainTransfersTable {
  chain_id: number;
  tx_hash: string;
  log_index: number;
  /** numeric(20,0). */
  block_number: string;
  block_hash: string;
  token_address: string;
  /** The log's sender: for a swap, the pool. */
  from_address: string;
  /** The transaction's sender: the payer of a swap. */
  tx_from: string;
  to_address: string;
  /** Base units, numeric(78,0). */
  amount: string;
  /** The transaction's input (lowercase hex without `0x`): where a session's reference is found. */
  tx_input: Generated<string>;
  seen_at: Timestamp;
  /** True once the sessions it may pay were told (signalled). */
  handed_over: Generated<boolean>;
}

/**
 * A sweep of deposit addresses (one `deployAndSweep` transaction), claimed before it is sent: the signed
 * transaction, whose hash and nonce are fixed, so sending it again can never sweep twice. `claimed` until
 * its receipt is read; `dropped` when its nonce went to another transaction.
 */
export interface DepositSweepsTable {
  id: string;
  chain_id: number;
  status: 'claimed' | 'mined' | 'reverted' | 'dropped';
  tx_hash: string;
  raw_transaction: string;
  /** numeric(20,0). */
  nonce: string;
  /** How many times it was handed to the chain's endpoint: once, and once more at most after an unknown outcome. */
  broadcasts: Generated<number>;
  /** Once mined: gas used and the price paid per unit (wei), numeric(78,0). */
  gas_used: string | null;
  gas_price: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A session a sweep moves the payments of, through a block; its share of the sweep's gas (wei) once mined. */
export interface DepositSweepSessionsTable {
  sweep_id: string;
  session_id: string;
  /** numeric(20,0). */
  through_block: string;
  gas_spent: string | null;
}

/** The checkout tables, part of the Database. */
export interface CheckoutTables {
  deposit_sweeps: DepositSweepsTable;
  deposit_sweep_sessions: DepositSweepSessionsTable;
  expected_payments: ExpectedPaymentsTable;
  checkout_sessions: CheckoutSessionsTable;
  checkout_transactions: CheckoutTransactionsTable;
  checkout_payment_amounts: CheckoutPaymentAmountsTable;
  chain_watch: ChainWatchTable;
  chain_watch_status: ChainWatchStatusTable;
  chain_watch_addresses: ChainWatchAddressesTable;
  chain_transfers: ChainTransfersTable;
}

export type ExpectedPaymentRow = Selectable<ExpectedPaymentsTable>;
export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;
export type ChainWatchRow = Selectable<ChainWatchTable>;
export type ChainTransferRow = Selectable<ChainTransfersTable>;
export type DepositSweepRow = Selectable<DepositSweepsTable>;

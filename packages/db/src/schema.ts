/** Table types of the service's database (the same on PGlite and PostgreSQL). */
import type { Scope } from '@checkout/core';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { CheckoutTables } from './checkoutSchema.ts';
import type { Json, StoredToken, Timestamp } from './columnTypes.ts';
import type { ConsoleTables } from './consoleSchema.ts';
import type { HandOverTables } from './handOverSchema.ts';
import type { RampsTables } from './rampsSchema.ts';
import type { RefundTables } from './refundSchema.ts';
import type { UnmatchedTables } from './unmatchedSchema.ts';
import type { UsersTables } from './usersSchema.ts';

export type { StoredToken } from './columnTypes.ts';

export interface MerchantsTable {
  id: string;
  name: string | null;
  created_at: Timestamp;
}

export interface MerchantAddressesTable {
  id: string;
  merchant_id: string;
  /** EIP-55 checksummed. */
  address: string;
  verified: Generated<boolean>;
  /** Bumped by every write to the wallet's products (list caches compare it). */
  products_version: Generated<number>;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  /** SHA-256 of the secret, hex; the secret itself is never stored. */
  key_hash: string;
  /** First characters of the key, to tell keys apart in listings. */
  prefix: string;
  label: string | null;
  /** `test` keys see and change only the records of test networks; `live` keys see every record. */
  mode: ColumnType<ApiKeyMode, ApiKeyMode | undefined, never>;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  /** The scopes the key holds (`Scope` of packages/core/src/access.ts); keys made before scopes hold `all`. */
  scopes: ColumnType<Scope[], string | undefined, string>;
  /** When the key last authenticated a request, written at most once a minute. */
  last_used_at: OptionalTimestamp;
  /** When a rolled key stops working; null while it has no end. */
  expires_at: OptionalTimestamp;
}

/** A nullable `timestamptz` that an insert may leave out. */
type OptionalTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type ApiKeyMode = 'live' | 'test';

/** One line of the audit log: who (`actor_kind`, `actor`) did `action` to `subject_id`, and when. */
export interface AuditEventsTable {
  id: string;
  /** Increases with each row: the log's order and its cursor (int8, read as text). */
  seq: Generated<string>;
  merchant_id: string;
  actor_kind: 'api_key' | 'wallet';
  /** The API key's id or the wallet's checksummed address. */
  actor: string;
  action: string;
  subject_id: string | null;
  detail: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface ProductsTable {
  id: string;
  merchant_id: string;
  address_id: string;
  slug: string;
  name: string;
  email: string;
  send_email: boolean;
  email_body: string;
  send_webhook: boolean;
  webhook_url: string | null;
  success_url: string;
  failure_url: string;
  active: boolean;
  /** numeric: a decimal string. */
  tax_rate: string;
  swappable: boolean;
  open_amount: boolean;
  expires_in_minutes: number | null;
  custom_fields: Json<string[]>;
  token_blockchain: string;
  token_network: string;
  token_address: string;
  /** Token facts as they were when the product was made, so a later registry change cannot alter it. */
  token_symbol: string;
  token_name: string;
  token_decimals: number;
  chain_id: number;
  /** The product secret, encrypted (AES-256-GCM). */
  secret_ciphertext: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ResolvedPaymentsTable {
  id: string;
  product_id: string;
  expected_payment_id: string;
  is_test: boolean;
  /** numeric(20,2). */
  dollar_amount: string;
  metadata: Json<Record<string, unknown> | null>;
  user_email: string;
  custom_fields: Json<Record<string, string>>;
  chain_id: number;
  /** The checkout's token (2.2 without id). */
  expected_token: Json<StoredToken>;
  /** The token the shopper's transfer delivered. */
  received_token: Json<StoredToken>;
  /** Base units, numeric(78,0). */
  expected_token_amount: string;
  /** Base units, numeric(78,0). */
  received_token_amount: string;
  amount_difference: string;
  receiving_address: string;
  sender_address: string;
  tx_id: string;
  log_index: number;
  tx_success: boolean;
  tx_failure: boolean;
  swapped: boolean;
  late: boolean;
  /** The block holding the transaction (numeric(20,0)) and its hash; null for payments recorded before. */
  block_number: ColumnType<string | null, string | null | undefined, string | null>;
  block_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a reorganisation took the transaction off the chain: the payment no longer stands. */
  reversed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Base units of the received token that confirmed refunds gave back (numeric(78,0)). */
  refunded_amount: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Timestamp;
}

/** A claim on an effect that leaves the service (see repositories/effects.ts). */
export interface EffectClaimsTable {
  /** e.g. `email:customer_receipt:<resolved payment id>`, `webhook:<delivery id>:<attempt>`. */
  key: string;
  status: 'claimed' | 'done';
  /** Which attempt holds the claim. */
  token: string;
  claimed_until: Timestamp;
  /** How many attempts claimed it (more than one: a holder died before recording its result). */
  tries: Generated<number>;
  /** Times the effect's outcome was unknown: after the first, it is made once more at most. */
  unknown_outcomes: Generated<number>;
  /** What came of the effect, recorded with `done`. */
  result: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  done_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/**
 * An e-mail given up with its outcome unknown (taken twice by the SMTP server without a final answer): it
 * may not have arrived. Kept with its message sealed, so it can be sent again on request.
 */
export interface UndeliveredEmailsTable {
  id: string;
  /** The e-mail's claim in `effect_claims`, e.g. `email:merchant_notice:<resolved payment id>`. */
  effect_key: string;
  /** The merchant and wallet it concerns: whose API lists it. */
  merchant_id: string;
  address_id: string;
  /** What the e-mail was, e.g. `merchant_notice`, `customer_receipt`, `reorg`, `refund_confirmed`. */
  kind: string;
  recipient: 'customer' | 'merchant';
  resolved_payment_id: string | null;
  refund_id: string | null;
  unmatched_transfer_id: string | null;
  subject: string;
  /** The whole message (recipients, subject, text, Message-ID) as JSON, sealed with the secret box. */
  message_ciphertext: string;
  given_up_at: Timestamp;
  /** Resends made on request. */
  resends: Generated<number>;
  resend_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  resent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_resend_outcome: 'sent' | 'outcome_unknown' | null;
}

/** Requests of one public API client in one minute, shared by every API process (unlogged). */
export interface PublicRateLimitsTable {
  client: string;
  window_start: Timestamp;
  count: number;
}

/** The whole database. */
export interface Database
  extends CheckoutTables,
    UsersTables,
    RampsTables,
    HandOverTables,
    UnmatchedTables,
    RefundTables,
    ConsoleTables {
  merchants: MerchantsTable;
  merchant_addresses: MerchantAddressesTable;
  api_keys: ApiKeysTable;
  audit_events: AuditEventsTable;
  products: ProductsTable;
  resolved_payments: ResolvedPaymentsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  effect_claims: EffectClaimsTable;
  undelivered_emails: UndeliveredEmailsTable;
  public_rate_limits: PublicRateLimitsTable;
}

export type ProductRow = Selectable<ProductsTable>;
export type NewProductRow = Insertable<ProductsTable>;
export type ResolvedPaymentRow = Selectable<ResolvedPaymentsTable>;
export type MerchantAddressRow = Selectable<MerchantAddressesTable>;

/** A merchant's webhook signing secret, encrypted with the SecretBox. */
export interface WebhookSecretsTable {
  merchant_id: string;
  secret_ciphertext: string;
  created_at: Timestamp;
  rotated_at: Timestamp | null;
}

/** One event sent to one URL; `payload` holds the exact bytes every attempt sends. */
export interface WebhookDeliveriesTable {
  id: string;
  merchant_id: string;
  /** e.g. `resolved_payment.created`. */
  event_type: string;
  /** Id of the record the event is about, e.g. the resolved payment. */
  subject_id: string;
  product_id: string | null;
  url: string;
  payload: string;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attempt_count: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Timestamp | null;
  /** The first delivery of the event, when this row is a redelivery. */
  redelivery_of: string | null;
  /** The record the event is about: `subject_id` up to its first `:`. */
  sequence_subject: string;
  /** The event's place among the events about `sequence_subject`, from 1 (a redelivery keeps its event's). */
  event_sequence: number;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

/** One HTTP request made for a delivery. */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  /** The first 1 KB of the response body. */
  response_snippet: string | null;
}

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type UndeliveredEmailRow = Selectable<UndeliveredEmailsTable>;

/** Table types of the service's database (the same on PGlite and PostgreSQL). */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** A token as stored inside a resolved payment (the wire Token without id). */
export interface StoredToken {
  symbol: string;
  address: string;
  name: string;
  decimal_count: number;
  blockchain: string;
  network: string;
}

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
  created_at: Timestamp;
  revoked_at: Timestamp | null;
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

/** The whole database. */
export interface Database {
  merchants: MerchantsTable;
  merchant_addresses: MerchantAddressesTable;
  api_keys: ApiKeysTable;
  products: ProductsTable;
  resolved_payments: ResolvedPaymentsTable;
  idempotency_keys: IdempotencyKeysTable;
}

export type ProductRow = Selectable<ProductsTable>;
export type NewProductRow = Insertable<ProductsTable>;
export type ResolvedPaymentRow = Selectable<ResolvedPaymentsTable>;
export type MerchantAddressRow = Selectable<MerchantAddressesTable>;

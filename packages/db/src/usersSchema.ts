/** Table types of Area B: users with their KYC state, KYC sessions, payment details and the account webhook endpoint. */
import type { Generated, Selectable } from 'kysely';
import type { Json, Timestamp } from './columnTypes.ts';

/** Clearance of one currency as stored: the same vocabulary as the general status. */
export interface StoredKycCurrency {
  status: string;
  swift_status: string;
}

/** A user's whole KYC state, stored as one document so every change is one row update. */
export interface StoredKyc {
  general: { status: string; moderation_comment: string | null };
  eur: StoredKycCurrency;
  usd: StoredKycCurrency;
  ars: StoredKycCurrency;
}

export interface UsersTable {
  id: string;
  /** The API key's merchant: the account that owns the user. */
  merchant_id: string;
  beneficiary_type: 'individual' | 'business';
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  email: string;
  /** ISO date (YYYY-MM-DD), kept as text so no driver shifts it by a time zone. */
  date_of_birth: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  state: string;
  postcode: string;
  country: string;
  nationality: string;
  phone: string;
  /** SSN, EIN or registration number, encrypted with the SecretBox. */
  ssn_ciphertext: string;
  website: string | null;
  source_of_funds: string | null;
  business_activity: string | null;
  business_description: string | null;
  kyc: Json<StoredKyc>;
  /** Bumped by every KYC change; names the change's webhook event. */
  kyc_version: Generated<number>;
  /** Why the last KYC step could not be applied; cleared by the next step that is. */
  kyc_status_message: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KycSessionsTable {
  id: string;
  user_id: string;
  merchant_id: string;
  /** SHA-256 (hex) of the unguessable part of the hosted KYC page URL: the token itself is never stored. */
  token_hash: string;
  provider: string;
  created_at: Timestamp;
  opened_at: Timestamp | null;
  submitted_at: Timestamp | null;
}

export interface PaymentDetailsTable {
  id: string;
  user_id: string;
  merchant_id: string;
  currency: string;
  /** As given (null when blank): the response echoes it. */
  rails: string | null;
  beneficiary_type: 'individual' | 'business';
  status: 'initiated' | 'pending' | 'approved' | 'failed' | 'deactivated';
  /** Bumped by every status change; names the change's webhook event. */
  status_version: Generated<number>;
  /** Every submitted field as JSON, encrypted: account numbers and IBANs never sit in the clear. */
  details_ciphertext: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountWebhookEndpointsTable {
  merchant_id: string;
  url: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The Area B tables, merged into the Database interface. */
export interface UsersTables {
  users: UsersTable;
  kyc_sessions: KycSessionsTable;
  payment_details: PaymentDetailsTable;
  account_webhook_endpoints: AccountWebhookEndpointsTable;
}

export type UserRow = Selectable<UsersTable>;
export type KycSessionRow = Selectable<KycSessionsTable>;
export type PaymentDetailRow = Selectable<PaymentDetailsTable>;
export type AccountWebhookEndpointRow = Selectable<AccountWebhookEndpointsTable>;

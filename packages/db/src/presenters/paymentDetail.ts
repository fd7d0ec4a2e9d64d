/** The wire form of a payment detail (spec 2.5), shared by the API and the `payment_detail_update` webhook. */
import { canonicalPaymentDetail } from '@checkout/banking';
import type { PaymentDetail, PaymentDetailInput } from '@checkout/core';
import type { SecretBox } from '../secretBox.ts';
import type { PaymentDetailRow } from '../usersSchema.ts';

const nullable = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === '' ? null : value;

/** A payment detail as responses and webhooks show it; the sealed fields are opened here only. */
export function presentPaymentDetail(row: PaymentDetailRow, secrets: SecretBox): PaymentDetail {
  // Details stored before identifiers were stored canonically are shown in the same form as newer ones.
  const f = canonicalPaymentDetail(JSON.parse(secrets.open(row.details_ciphertext)) as PaymentDetailInput);
  return {
    id: row.id,
    user_id: row.user_id,
    bank_name: f.bank_name ?? '',
    account_name: f.account_name ?? '',
    iban: nullable(f.iban),
    swift_bic: nullable(f.swift_bic),
    beneficiary_type: row.beneficiary_type,
    company_number: nullable(f.company_number),
    date_of_birth: nullable(f.date_of_birth),
    account_number: nullable(f.account_number),
    routing_number: nullable(f.routing_number),
    sort_code: nullable(f.sort_code),
    document_number: nullable(f.document_number),
    account_type: nullable(f.account_type),
    currency: row.currency,
    address_line1: nullable(f.address_line1),
    address_line2: nullable(f.address_line2),
    city: nullable(f.city),
    state: nullable(f.state),
    postal_code: nullable(f.postal_code),
    country: nullable(f.country),
    status: row.status,
    rails: row.rails,
  };
}

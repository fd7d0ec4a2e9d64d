/**
 * Payment details (spec 2.5, 4.6-4.9; research §11): a detail is checked in its canonical form by
 * `@checkout/banking`, refused unless the user's KYC covers its currency and rail, and stored sealed. Every
 * status change queues its `payment_detail_update` webhook and its delivery's start in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import { canonicalPaymentDetail, resolvePaymentRail, validatePaymentDetail } from '@checkout/banking';
import { ApiError, type Kyc, type PaymentDetailInput, recordInvalid, webhookEvents } from '@checkout/core';
import {
  type Database,
  insertPaymentDetail,
  inTransaction,
  type PaymentDetailRow,
  presentPaymentDetail,
  queueAccountEvent,
  type SecretBox,
  setPaymentDetailStatus,
  type UserRow,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { queueDeliveryStart } from '../webhookDelivery/start.ts';

/** Event type of the webhook sent on every payment detail status change (research §11). */

/** Refuses a detail the user's KYC does not cover: general approval first, then the currency's rail. */
function requireClearance(kyc: Kyc, currency: string, rail: string): void {
  if (kyc.general.status !== 'approved') {
    throw new ApiError(
      'not_yet_passed_kyc_kyb',
      `The user has not passed KYC/KYB yet (status ${kyc.general.status})`,
    );
  }
  if (currency !== 'eur' && currency !== 'usd' && currency !== 'ars') return;
  const entry = kyc[currency];
  const status = rail === 'swift' ? entry.swift_status : entry.status;
  if (status !== 'approved') {
    throw new ApiError(
      'not_approved_for_payout_rail',
      `The user is not approved for ${currency} payouts over ${rail} (status ${status})`,
      { errors: [{ path: 'payment_detail.rails', message: `is not approved for ${currency} (${status})` }] },
    );
  }
}

/**
 * Checks and stores the user's payment detail, `pending` until it is reviewed. What was checked is what is
 * stored and shown: identifiers in their electronic form, a listed bank name as listed.
 */
export async function createPaymentDetail(
  db: Kysely<Database>,
  secrets: SecretBox,
  input: { user: UserRow; paymentDetail: PaymentDetailInput },
): Promise<PaymentDetailRow> {
  const { user } = input;
  const kyc = user.kyc as Kyc;
  if (kyc.general.status !== 'approved') requireClearance(kyc, '', '');
  const detail = canonicalPaymentDetail(input.paymentDetail);
  const result = validatePaymentDetail(detail);
  if (!result.valid) {
    throw recordInvalid(
      result.errors.map((e) => ({ path: `payment_detail.${e.field}`, message: e.message })),
    );
  }
  const currency = detail.currency as string;
  const rail = resolvePaymentRail(currency, detail.rails) ?? 'local';
  requireClearance(kyc, currency, rail);
  const rails = detail.rails?.trim() ? detail.rails : null;
  return insertPaymentDetail(db, {
    id: randomUUID(),
    user_id: user.id,
    merchant_id: user.merchant_id,
    currency,
    rails,
    beneficiary_type: detail.beneficiary_type as PaymentDetailRow['beneficiary_type'],
    status: 'pending',
    details_ciphertext: secrets.seal(JSON.stringify(detail)),
  });
}

/**
 * Moves a detail to `status` (a deactivated one stays deactivated) and queues its `payment_detail_update`
 * webhook and the delivery's start in the same transaction (the request's, when it has one); the detail as
 * it stands afterwards.
 */
export async function changePaymentDetailStatus(
  db: Kysely<Database>,
  deps: { secrets: SecretBox },
  detail: PaymentDetailRow,
  status: PaymentDetailRow['status'],
): Promise<PaymentDetailRow> {
  if (detail.status === 'deactivated' && status !== 'deactivated') {
    throw new ApiError('payment_detail_not_active', 'A deactivated payment detail cannot change status');
  }
  return inTransaction(db, async (trx) => {
    const row = await setPaymentDetailStatus(trx, detail.id, detail.status, status);
    if (!row) return detail;
    const deliveryId = await queueAccountEvent(trx, deps.secrets, {
      merchantId: row.merchant_id,
      event: webhookEvents.paymentDetailUpdate,
      subjectId: `${row.id}:status:${row.status_version}`,
      payload: { payment_detail: presentPaymentDetail(row, deps.secrets) },
    });
    if (deliveryId) await queueDeliveryStart(trx, deliveryId);
    return row;
  });
}

/** Area B payment details (spec 2.5, 4.6-4.9): create, list, show, validate, deactivate. */
import { randomUUID } from 'node:crypto';
import { canonicalPaymentDetail, resolvePaymentRail, validatePaymentDetail } from '@checkout/banking';
import {
  ApiError,
  type Kyc,
  notFound,
  type PaymentDetail,
  PaymentDetailBody,
  type PaymentDetailInput,
  PaymentDetailListResponse,
  PaymentDetailResponse,
  PaymentDetailValidationResponse,
  recordInvalid,
  Uuid,
} from '@checkout/core';
import {
  type Database,
  findPaymentDetail,
  insertPaymentDetail,
  listPaymentDetails,
  type PaymentDetailRow,
  queueAccountEvent,
  type SecretBox,
  setPaymentDetailStatus,
  type UserRow,
} from '@checkout/db';
import { startWebhookDelivery } from '@checkout/workflows';
import type { ParameterizedContext } from 'koa';
import type { Kysely } from 'kysely';
import type { AppDeps, AppState } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, detailPath, errors, idPath, ok } from './docs.ts';
import { userOfRequest } from './users.ts';

/** Event type of the webhook sent on every payment detail status change (research §11). */
export const paymentDetailUpdateEvent = 'payment_detail_update';

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

/** Moves a detail to `status`, queues its `payment_detail_update` webhook in the same transaction, then starts delivery. */
export async function changePaymentDetailStatus(
  ctx: ParameterizedContext<AppState>,
  deps: AppDeps,
  detail: PaymentDetailRow,
  status: PaymentDetailRow['status'],
): Promise<PaymentDetailRow> {
  const write = async (trx: Kysely<Database>) => {
    const row = await setPaymentDetailStatus(trx, detail.id, status);
    if (!row) return { row: detail, deliveryId: null };
    const deliveryId = await queueAccountEvent(trx, {
      merchantId: row.merchant_id,
      event: paymentDetailUpdateEvent,
      subjectId: `${row.id}:status:${row.status_version}`,
      payload: { payment_detail: presentPaymentDetail(row, deps.secrets) },
    });
    return { row, deliveryId };
  };
  const db = ctx.state.db;
  const { row, deliveryId } = db.isTransaction ? await write(db) : await db.transaction().execute(write);
  if (deliveryId && deps.temporal) {
    try {
      await startWebhookDelivery(deps.temporal.client, deliveryId, deps.config.temporal.taskQueue);
    } catch (error) {
      // The row stays pending and can be redelivered; the status change itself stands.
      ctx.state.log.warn({ err: error, deliveryId }, 'could not start a webhook delivery');
    }
  }
  return row;
}

/** The account's payment detail of the user, or a 404. */
export async function paymentDetailOfRequest(
  ctx: ParameterizedContext<AppState>,
  user: UserRow,
  id: string | undefined,
): Promise<PaymentDetailRow> {
  if (!id || !Uuid.safeParse(id).success) throw notFound('Payment detail');
  const row = await findPaymentDetail(ctx.state.db, { merchantId: user.merchant_id, userId: user.id }, id);
  if (!row) throw notFound('Payment detail');
  return row;
}

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

/** Registers the payment detail routes on the Area B router. */
export function paymentDetailRoutes(router: Routes, deps: AppDeps): void {
  router.post(
    '/users/:id/payment_details/validate',
    areaB({
      summary: "Check a payment detail's format (not the account itself)",
      requestParams: { path: idPath },
      responses: {
        ...ok('The verdict', PaymentDetailValidationResponse),
        ...errors(400, 401, 404, 415, 422),
      },
    }),
    withBody({ schema: PaymentDetailBody, root: 'payment_detail' }, async (ctx, body) => {
      await userOfRequest(ctx, ctx.params.id);
      const { payment_detail: input } = body();
      const result = validatePaymentDetail(input);
      ctx.body = { payment_detail: { valid: result.valid, errors: result.errors } };
    }),
  );

  router.post(
    '/users/:id/payment_details',
    areaB({
      summary: 'Create a payment detail (needs approved KYC for its currency and rail)',
      requestParams: { path: idPath },
      responses: {
        ...ok('The new payment detail', PaymentDetailResponse),
        ...errors(400, 401, 404, 415, 422),
      },
    }),
    withBody({ schema: PaymentDetailBody, root: 'payment_detail' }, async (ctx, body) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const { payment_detail: submitted } = body();
      const kyc = user.kyc as Kyc;
      if (kyc.general.status !== 'approved') requireClearance(kyc, '', '');
      // What was checked is what is stored and shown: identifiers in their electronic form, a listed bank name as listed.
      const input = canonicalPaymentDetail(submitted);
      const result = validatePaymentDetail(input);
      if (!result.valid) {
        throw recordInvalid(
          result.errors.map((e) => ({ path: `payment_detail.${e.field}`, message: e.message })),
        );
      }
      const currency = input.currency as string;
      const rail = resolvePaymentRail(currency, input.rails) ?? 'local';
      requireClearance(kyc, currency, rail);
      const row = await insertPaymentDetail(ctx.state.db, {
        id: randomUUID(),
        user_id: user.id,
        merchant_id: user.merchant_id,
        currency,
        rails: nullable(input.rails),
        beneficiary_type: input.beneficiary_type as PaymentDetailRow['beneficiary_type'],
        status: 'pending',
        details_ciphertext: deps.secrets.seal(JSON.stringify(input)),
      });
      ctx.body = { payment_detail: presentPaymentDetail(row, deps.secrets) };
    }),
  );

  router.get(
    '/users/:id/payment_details',
    areaB({
      summary: "List a user's payment details",
      requestParams: { path: idPath },
      responses: { ...ok('Payment details', PaymentDetailListResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const rows = await listPaymentDetails(ctx.state.db, { merchantId: user.merchant_id, userId: user.id });
      ctx.body = { payment_details: rows.map((row) => presentPaymentDetail(row, deps.secrets)) };
    },
  );

  router.get(
    '/users/:id/payment_details/:detailId',
    areaB({
      summary: 'Show a payment detail',
      requestParams: { path: detailPath },
      responses: { ...ok('The payment detail', PaymentDetailResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const row = await paymentDetailOfRequest(ctx, user, ctx.params.detailId);
      ctx.body = { payment_detail: presentPaymentDetail(row, deps.secrets) };
    },
  );

  router.patch(
    '/users/:id/payment_details/:detailId/deactivate',
    areaB({
      summary: 'Deactivate a payment detail',
      requestParams: { path: detailPath },
      responses: { ...ok('The payment detail', PaymentDetailResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const detail = await paymentDetailOfRequest(ctx, user, ctx.params.detailId);
      const row = await changePaymentDetailStatus(ctx, deps, detail, 'deactivated');
      ctx.body = { payment_detail: presentPaymentDetail(row, deps.secrets) };
    },
  );
}

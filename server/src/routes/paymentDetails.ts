/** Area B payment details (spec 2.5, 4.6-4.9): create, list, show, validate, deactivate. */
import { validatePaymentDetail } from '@checkout/banking';
import {
  notFound,
  PaymentDetailBody,
  PaymentDetailListResponse,
  PaymentDetailResponse,
  PaymentDetailValidationResponse,
  Uuid,
} from '@checkout/core';
import {
  findPaymentDetail,
  listPaymentDetails,
  type PaymentDetailRow,
  presentPaymentDetail,
  type UserRow,
} from '@checkout/db';
import { changePaymentDetailStatus, createPaymentDetail } from '@checkout/workflows';
import type { ParameterizedContext } from 'koa';
import type { AppDeps, AppState } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, detailPath, errors, idPath, ok } from './docs.ts';
import { userOfRequest } from './users.ts';

/** What a payment detail's status change needs: the secrets to present it and the hand-over of its webhook. */

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
      const row = await createPaymentDetail(ctx.state.db, deps.secrets, {
        user,
        paymentDetail: body().payment_detail,
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
      const row = await changePaymentDetailStatus(
        ctx.state.db,
        { secrets: deps.secrets },
        detail,
        'deactivated',
      );
      ctx.body = { payment_detail: presentPaymentDetail(row, deps.secrets) };
    },
  );
}

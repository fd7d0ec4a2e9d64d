/** Area B payment details (spec 2.5, 4.6-4.9): create, list, show, validate, deactivate. */
import { validatePaymentDetail } from '@checkout/banking';
import {
  PaymentDetailBody,
  PaymentDetailListResponse,
  PaymentDetailResponse,
  PaymentDetailValidationResponse,
} from '@checkout/core';
import { listPaymentDetails, presentPaymentDetail } from '@checkout/db';
import { changePaymentDetailStatus, createPaymentDetail } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, detailPath, errors, ok, userPath } from './docs.ts';
import { listOfUser, paymentDetailOfRequest, userOfRequest } from './loaders.ts';

/** Registers the payment detail routes on the Area B router. */
export function paymentDetailRoutes(router: Routes, deps: AppDeps): void {
  router.post(
    '/users/:id/payment_details/validate',
    areaB('users:read', {
      summary: "Check a payment detail's format (not the account itself)",
      requestParams: { path: userPath },
      responses: {
        ...ok('The verdict', PaymentDetailValidationResponse),
        ...errors(400, 401, 404, 422),
      },
    }),
    withBody({ schema: PaymentDetailBody, root: 'payment_detail' }, async (ctx, body) => {
      await userOfRequest(ctx);
      const { payment_detail: input } = body();
      const result = validatePaymentDetail(input);
      ctx.body = { payment_detail: { valid: result.valid, errors: result.errors } };
    }),
  );

  router.post(
    '/users/:id/payment_details',
    areaB('users:write', {
      summary: 'Create a payment detail (needs approved KYC for its currency and rail)',
      requestParams: { path: userPath },
      responses: {
        ...ok('The new payment detail', PaymentDetailResponse),
        ...errors(400, 401, 404, 422),
      },
    }),
    withBody({ schema: PaymentDetailBody, root: 'payment_detail' }, async (ctx, body) => {
      const user = await userOfRequest(ctx);
      const row = await createPaymentDetail(ctx.state.db, deps.secrets, {
        user,
        paymentDetail: body().payment_detail,
      });
      ctx.body = { payment_detail: presentPaymentDetail(row, deps.secrets) };
    }),
  );

  router.get(
    '/users/:id/payment_details',
    areaB('users:read', {
      summary: "List a user's payment details",
      requestParams: { path: userPath },
      responses: { ...ok('Payment details', PaymentDetailListResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const rows = await listOfUser(ctx, listPaymentDetails);
      ctx.body = { payment_details: rows.map((row) => presentPaymentDetail(row, deps.secrets)) };
    },
  );

  router.get(
    '/users/:id/payment_details/:detailId',
    areaB('users:read', {
      summary: 'Show a payment detail',
      requestParams: { path: detailPath },
      responses: { ...ok('The payment detail', PaymentDetailResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const row = await paymentDetailOfRequest(ctx);
      ctx.body = { payment_detail: presentPaymentDetail(row, deps.secrets) };
    },
  );

  router.patch(
    '/users/:id/payment_details/:detailId/deactivate',
    areaB('users:write', {
      summary: 'Deactivate a payment detail',
      requestParams: { path: detailPath },
      responses: { ...ok('The payment detail', PaymentDetailResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const detail = await paymentDetailOfRequest(ctx);
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

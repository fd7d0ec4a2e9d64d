/**
 * Area A refunds: the merchant refunds a resolved payment or an unmatched transfer (the wallet pays it), lists
 * and reads them, and cancels one not yet paid.
 */
import { RefundListResponse, RefundQuery, RefundRequestBody, RefundResponse } from '@checkout/core';
import { presentRefund } from '@checkout/db';
import { cancelRefund, listWalletRefunds, requestRefund } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { parseBody } from '../parseBody.ts';
import { type Routes, withBody } from './declare.ts';
import {
  areaA,
  created,
  errors,
  merchantHeaders,
  ok,
  refundPath,
  resolvedPaymentPath,
  unmatchedPath,
  walletHeader,
} from './docs.ts';
import {
  refundOfRequest,
  resolvedPaymentOfRequest,
  unmatchedTransferOfRequest,
  walletScope,
} from './loaders.ts';

/** Registers the refund routes on the authenticated Area A router. */
export function refundRoutes(router: Routes, deps: AppDeps): void {
  const shown = { secrets: deps.secrets, publicBaseUrl: deps.config.publicBaseUrl };
  const requestDeps = { ...shown, claimDays: deps.config.checkout.refundClaimDays };

  router.post(
    '/resolved_payments/:id/refunds',
    areaA({
      summary:
        "Refund a resolved payment from the receiving wallet: all it received, what it was paid over, or part of it; to the merchant's address or one the customer gives",
      requestParams: { header: merchantHeaders, path: resolvedPaymentPath },
      responses: {
        ...created('The refund', RefundResponse),
        ...errors(400, 401, 403, 404, 409, 413, 415, 422),
      },
    }),
    withBody({ schema: RefundRequestBody }, async (ctx, body) => {
      const payment = await resolvedPaymentOfRequest(ctx);
      const row = await requestRefund(ctx.state.db, requestDeps, {
        scope: walletScope(ctx.state),
        subject: { resolvedPayment: payment },
        body: body(),
      });
      ctx.status = 201;
      ctx.body = { refund: presentRefund(row, shown) };
    }),
  );

  router.get(
    '/resolved_payments/:id/refunds',
    areaA({
      summary: "A resolved payment's refunds, newest first",
      requestParams: { header: walletHeader, path: resolvedPaymentPath },
      responses: { ...ok('Refunds', RefundListResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      const payment = await resolvedPaymentOfRequest(ctx);
      ctx.body = {
        refunds: await listWalletRefunds(ctx.state.db, shown, walletScope(ctx.state), {
          resolvedPaymentId: payment.id,
        }),
      };
    },
  );

  router.post(
    '/unmatched_transfers/:id/refunds',
    areaA({
      summary:
        'Refund an open unmatched transfer from the receiving wallet (it becomes refunded; a canceled or expired refund opens it again)',
      requestParams: { header: merchantHeaders, path: unmatchedPath },
      responses: {
        ...created('The refund', RefundResponse),
        ...errors(400, 401, 403, 404, 409, 413, 415, 422),
      },
    }),
    withBody({ schema: RefundRequestBody }, async (ctx, body) => {
      const transfer = await unmatchedTransferOfRequest(ctx);
      const row = await requestRefund(ctx.state.db, requestDeps, {
        scope: walletScope(ctx.state),
        subject: { unmatchedTransfer: transfer },
        body: body(),
      });
      ctx.status = 201;
      ctx.body = { refund: presentRefund(row, shown) };
    }),
  );

  router.get(
    '/refunds',
    areaA({
      summary: "The wallet's refunds, newest first (filter by status, time)",
      requestParams: { header: walletHeader, query: RefundQuery },
      responses: { ...ok('Refunds', RefundListResponse), ...errors(400, 401, 403, 422) },
    }),
    async (ctx) => {
      const query = parseBody(RefundQuery, { ...ctx.query });
      ctx.body = {
        refunds: await listWalletRefunds(ctx.state.db, shown, walletScope(ctx.state), {
          status: query.status,
          since: query.since ? new Date(query.since) : undefined,
          until: query.until ? new Date(query.until) : undefined,
        }),
      };
    },
  );

  router.get(
    '/refunds/:id',
    areaA({
      summary: 'A refund, with its claim link, pay link and payment request',
      requestParams: { header: walletHeader, path: refundPath },
      responses: { ...ok('The refund', RefundResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      ctx.body = { refund: presentRefund(await refundOfRequest(ctx), shown) };
    },
  );

  router.post(
    '/refunds/:id/cancel',
    areaA({
      summary: 'Cancel a refund not yet paid (awaiting its address or ready to pay)',
      requestParams: { header: merchantHeaders, path: refundPath },
      responses: { ...ok('The refund, canceled', RefundResponse), ...errors(400, 401, 403, 404, 409) },
    }),
    async (ctx) => {
      const row = await refundOfRequest(ctx);
      ctx.body = { refund: presentRefund(await cancelRefund(ctx.state.db, shown, row), shown) };
    },
  );
}

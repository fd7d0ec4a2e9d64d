/**
 * Area A refunds: the merchant refunds a resolved payment or an unmatched transfer (the wallet pays it), lists
 * and reads them, and cancels one not yet paid.
 */
import {
  RefundCancelBody,
  RefundListResponse,
  RefundQuery,
  RefundRequestBody,
  RefundResponse,
} from '@checkout/core';
import { presentRefund } from '@checkout/db';
import { cancelRefund, listWalletRefunds, type RefundSubject, requestRefund } from '@checkout/workflows';
import type { RouterContext } from '@koa/router';
import { formatUnits } from 'viem';
import type { AppDeps, AppState } from '../context.ts';
import { audited } from './audited.ts';
import { type Routes, withBody } from './declare.ts';
import {
  areaA,
  created,
  errors,
  merchantHeaders,
  notModified,
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
  const requestDeps = { ...shown, chains: deps.chains, claimDays: deps.config.checkout.refundClaimDays };

  /** Declares the POST at `path` that refunds the record `subjectOf` finds, from the receiving wallet. */
  const refundRoute = (
    path: string,
    summary: string,
    records: typeof refundPath,
    subjectOf: (ctx: RouterContext<AppState>) => Promise<RefundSubject>,
  ) =>
    router.post(
      path,
      areaA('refunds:write', {
        summary,
        requestParams: { header: merchantHeaders, path: records },
        responses: {
          ...created('The refund', RefundResponse),
          ...errors(400, 401, 403, 404, 409, 422),
        },
      }),
      withBody({ schema: RefundRequestBody }, async (ctx, body) => {
        const subject = await subjectOf(ctx);
        const scope = walletScope(ctx.state);
        const input = body();
        const row = await audited(
          ctx,
          (db) => requestRefund(db, requestDeps, { scope, subject, body: input }),
          (refund) => ({
            action: 'refund.requested',
            subject: refund.id,
            detail: {
              resolved_payment_id: refund.resolved_payment_id,
              unmatched_transfer_id: refund.unmatched_transfer_id,
              amount: formatUnits(BigInt(refund.amount), refund.token.decimal_count),
              token: refund.token.symbol,
            },
          }),
        );
        ctx.status = 201;
        ctx.body = { refund: presentRefund(row, shown) };
      }),
    );

  refundRoute(
    '/resolved_payments/:id/refunds',
    "Refund a resolved payment from the receiving wallet: all it received, what it was paid over, or part of it; to the merchant's address or one the customer gives",
    resolvedPaymentPath,
    async (ctx) => ({ resolvedPayment: await resolvedPaymentOfRequest(ctx) }),
  );

  router.get(
    '/resolved_payments/:id/refunds',
    areaA('refunds:read', {
      summary: "A resolved payment's refunds, newest first",
      requestParams: { header: walletHeader, path: resolvedPaymentPath },
      responses: { ...ok('Refunds', RefundListResponse), ...notModified, ...errors(400, 401, 403, 404) },
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

  refundRoute(
    '/unmatched_transfers/:id/refunds',
    'Refund an open unmatched transfer from the receiving wallet (it becomes refunded; a canceled or expired refund opens it again)',
    unmatchedPath,
    async (ctx) => ({ unmatchedTransfer: await unmatchedTransferOfRequest(ctx) }),
  );

  router.get(
    '/refunds',
    areaA('refunds:read', {
      summary: "The wallet's refunds, newest first (filter by status, time)",
      requestParams: { header: walletHeader, query: RefundQuery },
      responses: { ...ok('Refunds', RefundListResponse), ...notModified, ...errors(400, 401, 403, 422) },
    }),
    async (ctx) => {
      const { query } = ctx.state;
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
    areaA('refunds:read', {
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
    areaA('refunds:write', {
      summary:
        'Cancel a refund not yet paid (awaiting its address or ready to pay); an optional reason is shown to the customer',
      requestParams: { header: merchantHeaders, path: refundPath },
      responses: {
        ...ok('The refund, canceled', RefundResponse),
        ...errors(400, 401, 403, 404, 409, 422, 503),
      },
    }),
    withBody({ schema: RefundCancelBody, optional: true }, async (ctx, body) => {
      const row = await refundOfRequest(ctx);
      const reason = body().reason;
      const canceled = await audited(
        ctx,
        (db) => cancelRefund(db, requestDeps, row, reason),
        (refund) => ({ action: 'refund.canceled', subject: refund.id, detail: { reason: reason ?? null } }),
      );
      ctx.body = { refund: presentRefund(canceled, shown) };
    }),
  );
}

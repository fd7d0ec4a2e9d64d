/**
 * Area A: the wallet's resolved payments — a page at a time with filters and search, one by id, and all of
 * them as CSV.
 */
import { Readable } from 'node:stream';
import {
  notFound,
  PaymentTimelineResponse,
  ResolvedPaymentExportQuery,
  ResolvedPaymentPage,
  ResolvedPaymentQuery,
  ResolvedPaymentResponse,
} from '@checkout/core';
import type { PaymentSearchFilter } from '@checkout/db';
import { walletPayment, walletPayments, walletPaymentsCsv, walletPaymentTimeline } from '@checkout/workflows';
import { z } from 'zod';
import type { AppDeps } from '../context.ts';
import type { Routes } from './declare.ts';
import { areaA, errors, notModified, ok, resolvedPaymentPath, walletHeader } from './docs.ts';
import { walletScope } from './loaders.ts';

/** The search filter of a list or export query. */
function filterOf(query: z.output<typeof ResolvedPaymentExportQuery>): PaymentSearchFilter {
  return {
    productId: query.product_id,
    status: query.status,
    exception: query.exception,
    mode: query.mode,
    since: query.since ? new Date(query.since) : undefined,
    until: query.until ? new Date(query.until) : undefined,
    search: query.q || undefined,
  };
}

/** Registers the resolved payment routes on the authenticated Area A router. */
export function resolvedPaymentRoutes(router: Routes, deps: AppDeps): void {
  router.get(
    '/resolved_payments',
    areaA('payments:read', {
      summary:
        "The wallet's resolved payments, newest first, a page at a time (filter by product, status, exception, mode, time; search by transaction hash, e-mail or id)",
      requestParams: { header: walletHeader, query: ResolvedPaymentQuery },
      responses: {
        ...ok('One page of resolved payments', ResolvedPaymentPage),
        ...notModified,
        ...errors(400, 401, 403, 422),
      },
    }),
    async (ctx) => {
      const { query } = ctx.state;
      ctx.body = await walletPayments(ctx.state.db, deps.secrets, walletScope(ctx.state), filterOf(query), {
        limit: query.limit,
        after: query.cursor,
      });
    },
  );

  router.get(
    '/resolved_payments/export',
    areaA('payments:read', {
      summary:
        "The wallet's resolved payments matching the list's filters as CSV (RFC 4180, header line first): id, created_at, product, email, dollar_amount, amount, token, chain, chain_id, tx_hash, sender, exception, refunded, test",
      requestParams: { header: walletHeader, query: ResolvedPaymentExportQuery },
      responses: {
        '200': { description: 'The payments as CSV', content: { 'text/csv': { schema: z.string() } } },
        ...errors(400, 401, 403, 422),
      },
    }),
    (ctx) => {
      const lines = walletPaymentsCsv(
        ctx.state.db,
        deps.secrets,
        walletScope(ctx.state),
        filterOf(ctx.state.query),
      );
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', 'attachment; filename="payments.csv"');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = Readable.from(lines);
    },
  );

  router.get(
    '/resolved_payments/:id',
    areaA('payments:read', {
      summary: 'A resolved payment of the wallet',
      requestParams: { header: walletHeader, path: resolvedPaymentPath },
      responses: { ...ok('The resolved payment', ResolvedPaymentResponse), ...errors(400, 401, 403, 404) },
    }),
    async (ctx) => {
      const payment = await walletPayment(ctx.state.db, deps.secrets, walletScope(ctx.state), ctx.params.id!);
      if (!payment) throw notFound('Resolved payment');
      ctx.body = { resolved_payment: payment };
    },
  );

  router.get(
    '/resolved_payments/:id/timeline',
    areaA('payments:read', {
      summary:
        'Everything that happened to a resolved payment of the wallet, oldest first: its session, transfer and confirmations, its resolution, each webhook delivery and attempt, each e-mail (kind and recipient), each refund step, a reversal (at most 500 entries)',
      requestParams: { header: walletHeader, path: resolvedPaymentPath },
      responses: {
        ...ok("The payment's timeline", PaymentTimelineResponse),
        ...notModified,
        ...errors(400, 401, 403, 404),
      },
    }),
    async (ctx) => {
      const timeline = await walletPaymentTimeline(
        ctx.state.db,
        deps.secrets,
        walletScope(ctx.state),
        ctx.params.id!,
      );
      if (!timeline) throw notFound('Resolved payment');
      ctx.body = timeline;
    },
  );
}

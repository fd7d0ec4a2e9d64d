/** Area A: transfers into the merchant's wallet that no checkout took — listed, attached, dismissed. */
import {
  UnmatchedTransferAttachBody,
  UnmatchedTransferDismissBody,
  UnmatchedTransferListResponse,
  UnmatchedTransferQuery,
  UnmatchedTransferResponse,
} from '@checkout/core';
import {
  attachToExpectedPayment,
  attachToResolvedPayment,
  dismissUnmatched,
  listWalletUnmatched,
  presentUnmatched,
} from '@checkout/workflows';
import type { AppDeps, AppState } from '../context.ts';
import { audited } from './audited.ts';
import { type Routes, withBody } from './declare.ts';
import { areaA, errors, merchantHeaders, notModified, ok, unmatchedPath, walletHeader } from './docs.ts';
import { unmatchedTransferOfRequest, walletScope } from './loaders.ts';

/** The request's wallet, as the unmatched-transfer steps take it. */
const walletOf = (state: AppState) => ({ ...walletScope(state), address: state.address!.address });

/** Registers the unmatched-transfer routes on the authenticated Area A router. */
export function unmatchedTransferRoutes(router: Routes, deps: AppDeps): void {
  const windows = {
    sessionTtlMinutes: deps.config.checkout.sessionTtlMinutes,
    graceMinutes: deps.config.checkout.graceMinutes,
  };

  router.get(
    '/unmatched_transfers',
    areaA('transfers:read', {
      summary:
        'Transfers into the wallet that no checkout took, newest first (filter by product, status, time)',
      requestParams: { header: walletHeader, query: UnmatchedTransferQuery },
      responses: {
        ...ok('Unmatched transfers', UnmatchedTransferListResponse),
        ...notModified,
        ...errors(400, 401, 403, 422),
      },
    }),
    async (ctx) => {
      const { query } = ctx.state;
      ctx.body = {
        unmatched_transfers: await listWalletUnmatched(ctx.state.db, walletOf(ctx.state), {
          productId: query.product_id,
          status: query.status,
          since: query.since ? new Date(query.since) : undefined,
          until: query.until ? new Date(query.until) : undefined,
        }),
      };
    },
  );

  router.get(
    '/unmatched_transfers/:id',
    areaA('transfers:read', {
      summary: 'An unmatched transfer, with the checkouts it arrived near',
      requestParams: { header: walletHeader, path: unmatchedPath },
      responses: {
        ...ok('The unmatched transfer', UnmatchedTransferResponse),
        ...errors(400, 401, 403, 404),
      },
    }),
    async (ctx) => {
      const [row] = await presentUnmatched(ctx.state.db, [await unmatchedTransferOfRequest(ctx)]);
      ctx.body = { unmatched_transfer: row };
    },
  );

  router.post(
    '/unmatched_transfers/:id/attach',
    areaA('transfers:write', {
      summary:
        'Attach it to an open expected payment (its checkout records it as its payment) or to a resolved payment (a top-up of the same token)',
      requestParams: { header: merchantHeaders, path: unmatchedPath },
      responses: {
        ...ok('The unmatched transfer, attached', UnmatchedTransferResponse),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    withBody({ schema: UnmatchedTransferAttachBody }, async (ctx, body) => {
      const row = await unmatchedTransferOfRequest(ctx);
      const input = body();
      const scope = walletOf(ctx.state);
      const attached = await audited(
        ctx,
        (db) =>
          input.expected_payment_id
            ? attachToExpectedPayment(
                db,
                { windows, secrets: deps.secrets },
                { scope, row, expectedPaymentId: input.expected_payment_id },
              )
            : attachToResolvedPayment(
                db,
                { secrets: deps.secrets },
                { scope, row, resolvedPaymentId: input.resolved_payment_id! },
              ),
        (transfer) => ({
          action: 'unmatched_transfer.attached',
          subject: transfer.id,
          detail: input.expected_payment_id
            ? { expected_payment_id: input.expected_payment_id }
            : { resolved_payment_id: input.resolved_payment_id },
        }),
      );
      const [shown] = await presentUnmatched(ctx.state.db, [attached]);
      ctx.body = { unmatched_transfer: shown };
    }),
  );

  router.post(
    '/unmatched_transfers/:id/dismiss',
    areaA('transfers:write', {
      summary: 'Dismiss it with a note (nothing is booked or sent)',
      requestParams: { header: merchantHeaders, path: unmatchedPath },
      responses: {
        ...ok('The unmatched transfer, dismissed', UnmatchedTransferResponse),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    withBody({ schema: UnmatchedTransferDismissBody }, async (ctx, body) => {
      const row = await unmatchedTransferOfRequest(ctx);
      const { note } = body();
      const dismissed = await audited(
        ctx,
        (db) => dismissUnmatched(db, { secrets: deps.secrets }, row, note),
        (transfer) => ({ action: 'unmatched_transfer.dismissed', subject: transfer.id, detail: { note } }),
      );
      const [shown] = await presentUnmatched(ctx.state.db, [dismissed]);
      ctx.body = { unmatched_transfer: shown };
    }),
  );
}

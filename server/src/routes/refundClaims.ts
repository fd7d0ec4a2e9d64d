/**
 * The public JSON routes of the refund pages (no key; the page's token is the credential; rate limited): the
 * customer's claim (read it, give the address) and the merchant's pay page (the exact transfer to make).
 */
import { RefundClaimBody, RefundClaimResponse, RefundPaymentResponse } from '@checkout/core';
import { claimRefund, viewRefundClaim, viewRefundPayment } from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { errors, limited, ok, refundTokenPath } from './docs.ts';
import { refundOfToken } from './loaders.ts';

/** Registers the refund pages' JSON routes on the public router. */
export function publicRefundRoutes(router: Routes, deps: AppDeps): void {
  const shown = { secrets: deps.secrets, publicBaseUrl: deps.config.publicBaseUrl };

  router.get(
    '/refund_claims/:token',
    {
      summary: "A refund as its customer's claim page shows it",
      requestParams: { path: refundTokenPath },
      responses: { ...ok('The refund claim', RefundClaimResponse), ...errors(404), ...limited },
    },
    async (ctx) => {
      const db = ctx.state.db;
      ctx.body = { refund_claim: await viewRefundClaim(db, await refundOfToken(ctx, db, 'claim')) };
    },
  );

  router.post(
    '/refund_claims/:token',
    {
      summary: "Give the refund's address (a refund awaiting one becomes ready to pay)",
      requestParams: { path: refundTokenPath },
      responses: {
        ...ok('The refund claim', RefundClaimResponse),
        ...errors(400, 404, 409, 422),
        ...limited,
      },
    },
    withBody({ schema: RefundClaimBody }, async (ctx, body) => {
      const db = ctx.state.db;
      const row = await refundOfToken(ctx, db, 'claim');
      const claimed = await claimRefund(
        db,
        { ...shown, chains: deps.chains },
        {
          row,
          refundAddress: body().refund_address,
        },
      );
      ctx.body = { refund_claim: await viewRefundClaim(db, claimed) };
    }),
  );

  router.get(
    '/refund_payments/:token',
    {
      summary:
        "A refund as the merchant's pay page shows it: the exact transfer to make from the receiving wallet",
      requestParams: { path: refundTokenPath },
      responses: { ...ok('The refund payment', RefundPaymentResponse), ...errors(404), ...limited },
    },
    async (ctx) => {
      const db = ctx.state.db;
      ctx.body = { refund_payment: await viewRefundPayment(db, await refundOfToken(ctx, db, 'pay')) };
    },
  );
}

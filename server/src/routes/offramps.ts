import {
  OfframpListResponse,
  OfframpRefundBody,
  OfframpResendBody,
  OfframpResponse,
  OfframpsCreateBody,
  OfframpUpdateBody,
  QuoteExecuteBody,
  QuoteResponse,
} from '@checkout/core';
import { listOfframpsOfUser, presentOfframp } from '@checkout/db';
import {
  addOfframps,
  changeOfframpReference,
  executeQuote,
  requestOfframpRefund,
  requestOfframpResend,
} from '@checkout/workflows';
import type { AppDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, offrampPath, ok, quotePath, unavailable, userOfframpPath, userPath } from './docs.ts';
import { listOfUser, offrampOfRequest, quoteOfframpOfRequest, quoteOfRequest } from './loaders.ts';
import { quoteAnswer } from './quotes.ts';

/** Registers offramp and quote execution routes on the Area B router (API key only). */
export function offrampRoutes(router: Routes, deps: AppDeps): void {
  router.post(
    '/users/:id/quotes/:quoteId/offramps',
    areaB('ramps:write', {
      summary: 'Add offramps (payouts to approved payment details) to an open quote',
      requestParams: { path: quotePath },
      responses: { ...ok('The new offramps', OfframpListResponse), ...errors(400, 401, 404, 409, 422) },
    }),
    withBody({ schema: OfframpsCreateBody, root: 'offramps' }, async (ctx, body) => {
      const quote = await quoteOfRequest(ctx);
      const { offramps: inputs } = body();
      const inserted = await addOfframps(ctx.state.db, deps.config.ramps, { quote, offramps: inputs });
      ctx.body = { offramps: inserted.map(presentOfframp) };
    }),
  );

  router.get(
    '/users/:id/offramps',
    areaB('ramps:read', {
      summary: "List a user's offramps across quotes",
      requestParams: { path: userPath },
      responses: { ...ok('Offramps, oldest first', OfframpListResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const rows = await listOfUser(ctx, listOfframpsOfUser);
      ctx.body = { offramps: rows.map(presentOfframp) };
    },
  );

  router.get(
    '/users/:id/offramps/:offrampId',
    areaB('ramps:read', {
      summary: 'Show an offramp',
      requestParams: { path: userOfframpPath },
      responses: { ...ok('The offramp', OfframpResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      ctx.body = { offramp: presentOfframp(await offrampOfRequest(ctx)) };
    },
  );

  router.patch(
    '/users/:id/quotes/:quoteId/offramps/:offrampId',
    areaB('ramps:write', {
      summary: "Change an offramp's reference while it is initiated",
      requestParams: { path: offrampPath },
      responses: { ...ok('The offramp', OfframpResponse), ...errors(400, 401, 404, 422) },
    }),
    withBody({ schema: OfframpUpdateBody, root: 'offramp' }, async (ctx, body) => {
      const { row } = await quoteOfframpOfRequest(ctx);
      const updated = await changeOfframpReference(ctx.state.db, row, body().offramp.reference);
      ctx.body = { offramp: presentOfframp(updated) };
    }),
  );

  // A bounced payout (research §7): pay it out again to another approved detail of the same currency.
  router.post(
    '/users/:id/quotes/:quoteId/offramps/:offrampId/resend',
    areaB('ramps:write', {
      summary:
        'Pay a bounced offramp out again, to another approved payment detail of the same currency (applied by the workflow moments later)',
      requestParams: { path: offrampPath },
      responses: {
        ...ok('The offramp, still bounced, with its new payment detail', OfframpResponse),
        ...errors(400, 401, 404, 409, 422),
      },
    }),
    withBody({ schema: OfframpResendBody, root: 'offramp' }, async (ctx, body) => {
      const { quote, row } = await quoteOfframpOfRequest(ctx);
      const updated = await requestOfframpResend(ctx.state.db, {
        quote,
        offramp: row,
        paymentDetailId: body().offramp.payment_detail_id,
      });
      ctx.body = { offramp: presentOfframp(updated) };
    }),
  );

  // A bounced payout (research §7): return its tokens, fee included, to the deposit's sender or a given address.
  router.post(
    '/users/:id/quotes/:quoteId/offramps/:offrampId/refund',
    areaB('ramps:write', {
      summary:
        "Refund a bounced offramp's tokens, fee included, to the deposit's sender or refund_address (applied by the workflow moments later)",
      requestParams: { path: offrampPath },
      responses: {
        ...ok('The offramp, still bounced, with the refund requested', OfframpResponse),
        ...errors(400, 401, 404, 409, 422),
      },
    }),
    withBody({ schema: OfframpRefundBody, root: 'offramp' }, async (ctx, body) => {
      const { quote, row } = await quoteOfframpOfRequest(ctx);
      const updated = await requestOfframpRefund(ctx.state.db, {
        quote,
        offramp: row,
        refundAddress: body().offramp.refund_address ?? undefined,
      });
      ctx.body = { offramp: presentOfframp(updated) };
    }),
  );

  router.post(
    '/users/:id/quotes/:quoteId/execute',
    areaB('ramps:write', {
      summary: 'Execute a quote funded on chain: verifies the deposit, then starts the payouts',
      requestParams: { path: quotePath },
      responses: {
        ...ok('The executed quote, its offramps still initiated', QuoteResponse),
        ...errors(400, 401, 404, 409, 422),
        ...unavailable,
      },
    }),
    withBody({ schema: QuoteExecuteBody, root: 'quote' }, async (ctx, body) => {
      const quote = await quoteOfRequest(ctx);
      const { quote: input } = body();
      const executed = await executeQuote(
        ctx.state.db,
        { chains: deps.chains, secrets: deps.secrets, log: ctx.state.log },
        { quote, transfer: input.crypto_transfer },
      );
      ctx.body = await quoteAnswer(ctx.state.db, executed);
    }),
  );
}

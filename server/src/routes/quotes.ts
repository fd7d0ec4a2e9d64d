/**
 * Quotes (spec 2.6, 4.10; research §7): routes over the quote family's `createQuote` (each quote with its
 * own deposit address) and `rateQuote` (one payout priced, nothing stored).
 */

import {
  centsToDecimal,
  formatUnits,
  QuoteCreateBody,
  QuoteRateBody,
  QuoteRateResponse,
  QuoteResponse,
} from '@checkout/core';
import { listOfframpsOfQuote, listQuoteRefunds, presentQuote, type QuoteRow } from '@checkout/db';
import { createQuote, type QuoteRules, rateQuote } from '@checkout/workflows';
import { type AppDeps, type AppState, rampChains } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, ok, quotePath, userPath } from './docs.ts';
import { quoteOfRequest, userOfRequest } from './loaders.ts';

/** A quote as answered: with its offramps and its refunds. */
export async function quoteAnswer(db: AppState['db'], row: QuoteRow) {
  return presentQuote(row, await listOfframpsOfQuote(db, row.id), await listQuoteRefunds(db, row.id));
}

/** Registers the quote routes on the Area B router (API key only). */
export function quoteRoutes(router: Routes, deps: AppDeps): void {
  const rules: QuoteRules = {
    ...rampChains(deps),
    depositMnemonic: deps.config.ramps.depositMnemonic,
    quoteExpiryMinutes: deps.config.ramps.quoteExpiryMinutes,
    offrampFees: deps.config.ramps.offrampFees,
    fxRates: deps.config.ramps.fxRates,
  };

  router.post(
    '/users/:id/quotes',
    areaB('ramps:write', {
      summary: 'Create a quote with its own deposit address (starts its expiry timer)',
      requestParams: { path: userPath },
      responses: { ...ok('The new quote', QuoteResponse), ...errors(400, 401, 404, 409, 422) },
    }),
    withBody({ schema: QuoteCreateBody, root: 'quote' }, async (ctx, body) => {
      const user = await userOfRequest(ctx);
      const row = await createQuote(ctx.state.db, rules, { user, quote: body().quote });
      ctx.body = presentQuote(row, []);
    }),
  );

  // A calculator for one payout (research §7, Quote#Rate): nothing is stored and no address is handed out.
  router.post(
    '/users/:id/quote/rate',
    areaB('ramps:read', {
      summary: 'Price one payout from the fiat or the token side (nothing is stored)',
      requestParams: { path: userPath },
      responses: { ...ok('The price', QuoteRateResponse), ...errors(400, 401, 404, 422) },
    }),
    withBody({ schema: QuoteRateBody, root: 'quote' }, async (ctx, body) => {
      // Only the account's own users may be priced for.
      await userOfRequest(ctx);
      const { quote: input } = body();
      const { chain, token, rails, rate, price } = rateQuote(rules, input);
      ctx.body = {
        quote: {
          deposit_token: input.deposit_token,
          deposit_token_chain: chain.blockchain,
          deposit_token_amount: Number(formatUnits(price.tokenUnits, token.decimals)),
          fiat_amount: Number(centsToDecimal(price.fiatCents)),
          fiat_currency: input.fiat_currency,
          currency_pair: `${input.deposit_token}${input.fiat_currency}`,
          fees: Number(centsToDecimal(price.feeCents)),
          rails,
          rate,
          expiry: Math.floor(Date.now() / 1000) + deps.config.ramps.quoteExpiryMinutes * 60,
          executed: false,
        },
      };
    }),
  );

  router.get(
    '/users/:id/quotes/:quoteId',
    areaB('ramps:read', {
      summary: 'Show a quote: the total required to deliver its offramps',
      requestParams: { path: quotePath },
      responses: { ...ok('The quote (spec 2.6)', QuoteResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      ctx.body = await quoteAnswer(ctx.state.db, await quoteOfRequest(ctx));
    },
  );
}

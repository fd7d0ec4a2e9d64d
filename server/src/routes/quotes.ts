/**
 * Quotes (spec 2.6, 4.10; research §7): each quote gets its own deposit address, derived from the HD
 * mnemonic at the next index of a database sequence, so no address is ever handed out twice.
 */

import { randomUUID } from 'node:crypto';
import { deriveDepositAccount } from '@checkout/chain';
import {
  centsToDecimal,
  fiatDecimals,
  formatUnits,
  maxOfframpAmount,
  notFound,
  parseUnits,
  priceOfframp,
  QuoteCreateBody,
  QuoteRateBody,
  QuoteRateResponse,
  QuoteResponse,
  recordInvalid,
  Uuid,
} from '@checkout/core';
import {
  findQuote,
  insertQuote,
  listOfframpsOfQuote,
  listQuoteRefunds,
  nextDepositIndex,
  presentQuote,
  type QuoteRow,
  type UserRow,
} from '@checkout/db';
import { handQuoteToWorkflow } from '@checkout/workflows';
import type { ParameterizedContext } from 'koa';
import { type AppDeps, type AppState, handOverDeps } from '../context.ts';
import { type Routes, withBody } from './declare.ts';
import { areaB, errors, idPath, ok, quotePath } from './docs.ts';
import { userOfRequest } from './users.ts';

/** Deposit tokens a quote accepts: USD stablecoins, as in the research (§7, §14). */
export const quoteDepositTokens = ['usdc', 'usdt'] as const;

/** The account's quote of the user, or a 404. */
export async function quoteOfRequest(
  ctx: ParameterizedContext<AppState>,
  user: UserRow,
  id: string | undefined,
): Promise<QuoteRow> {
  if (!id || !Uuid.safeParse(id).success) throw notFound('Quote');
  const row = await findQuote(ctx.state.db, { merchantId: user.merchant_id, userId: user.id }, id);
  if (!row) throw notFound('Quote');
  return row;
}

/** Registers the quote routes on the Area B router (API key only). */
export function quoteRoutes(router: Routes, deps: AppDeps): void {
  // The deposit token and its chain: the test network outside production, mainnet in production.
  const depositToken = (symbol: string, blockchain: string) => {
    const network = deps.config.env === 'production' ? 'mainnet' : 'testnet';
    const chain = deps.tokens.chains.find(
      (c) => c.blockchain === blockchain && c.network === network && deps.chains.has(c.chainId),
    );
    const token = (quoteDepositTokens as readonly string[]).includes(symbol)
      ? chain?.paymentTokens.find((t) => t.symbol.toLowerCase() === symbol)
      : undefined;
    if (!chain) throw recordInvalid([{ path: 'quote.deposit_token_chain', message: 'is not supported' }]);
    if (!token)
      throw recordInvalid([
        { path: 'quote.deposit_token', message: `is not supported on ${chain.blockchain}` },
      ]);
    return { chain, token, network };
  };

  router.post(
    '/users/:id/quotes',
    areaB({
      summary: 'Create a quote with its own deposit address (starts its expiry timer)',
      requestParams: { path: idPath },
      responses: { ...ok('The new quote', QuoteResponse), ...errors(400, 401, 404, 409, 415, 422) },
    }),
    withBody({ schema: QuoteCreateBody, root: 'quote' }, async (ctx, body) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const { quote: input } = body();
      const { chain, token, network } = depositToken(input.deposit_token, input.deposit_token_chain);
      // Outside the request's transaction semantics: a sequence value is never returned, even on rollback.
      const index = await nextDepositIndex(ctx.state.db);
      const account = deriveDepositAccount({ mnemonic: deps.config.ramps.depositMnemonic, index });
      const row = await insertQuote(ctx.state.db, {
        id: randomUUID(),
        user_id: user.id,
        merchant_id: user.merchant_id,
        deposit_token: input.deposit_token,
        deposit_token_chain: chain.blockchain,
        chain_id: chain.chainId,
        network,
        token_address: token.address,
        token_decimals: token.decimals,
        deposit_index: index,
        deposit_address: account.address,
        expires_at: new Date(Date.now() + deps.config.ramps.quoteExpiryMinutes * 60_000),
      });
      // The quote's lifecycle holds its expiry timer; when Temporal is down the reconciler starts it later.
      await handQuoteToWorkflow(handOverDeps(deps), ctx.state.db, row, ctx.state.log);
      ctx.body = presentQuote(row, []);
    }),
  );

  // A calculator for one payout (research §7, Quote#Rate): nothing is stored and no address is handed out.
  router.post(
    '/users/:id/quote/rate',
    areaB({
      summary: 'Price one payout from the fiat or the token side (nothing is stored)',
      requestParams: { path: idPath },
      responses: { ...ok('The price', QuoteRateResponse), ...errors(400, 401, 404, 415, 422) },
    }),
    withBody({ schema: QuoteRateBody, root: 'quote' }, async (ctx, body) => {
      // Only the account's own users may be priced for.
      await userOfRequest(ctx, ctx.params.id);
      const { quote: input } = body();
      const { chain, token } = depositToken(input.deposit_token, input.deposit_token_chain);
      const rails = input.rails ?? 'local';
      const rule = deps.config.ramps.offrampFees.find(
        (r) => r.currency === input.fiat_currency && r.rail === rails,
      );
      const rate = deps.config.ramps.fxRates[input.fiat_currency];
      if (!rule || !rate) {
        throw recordInvalid([
          { path: 'quote.rails', message: `${rails} is not available for ${input.fiat_currency}` },
        ]);
      }
      // Priced amounts stay within what an offramp may pay out, so the answer is an exact JSON number.
      const limit = (field: 'fiat_amount' | 'deposit_token_amount', value: string | undefined) => {
        if (value !== undefined && parseUnits(value, 18) > parseUnits(maxOfframpAmount, 18)) {
          throw recordInvalid([{ path: `quote.${field}`, message: `must be at most ${maxOfframpAmount}` }]);
        }
      };
      limit('fiat_amount', input.fiat_amount);
      limit('deposit_token_amount', input.deposit_token_amount);
      let price: ReturnType<typeof priceOfframp>;
      try {
        price =
          input.fiat_amount !== undefined
            ? priceOfframp(
                { fiatCents: parseUnits(input.fiat_amount, fiatDecimals) },
                rule,
                rate,
                token.decimals,
              )
            : priceOfframp(
                { tokenUnits: parseUnits(input.deposit_token_amount!, token.decimals) },
                rule,
                rate,
                token.decimals,
              );
      } catch {
        throw recordInvalid([
          {
            path: 'quote.deposit_token_amount',
            message: `must have at most ${token.decimals} decimal places`,
          },
        ]);
      }
      if (price.fiatCents <= 0n) {
        throw recordInvalid([{ path: 'quote.deposit_token_amount', message: 'does not cover the fee' }]);
      }
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
    areaB({
      summary: 'Show a quote: the total required to deliver its offramps',
      requestParams: { path: quotePath },
      responses: { ...ok('The quote (spec 2.6)', QuoteResponse), ...errors(401, 404) },
    }),
    async (ctx) => {
      const user = await userOfRequest(ctx, ctx.params.id);
      const row = await quoteOfRequest(ctx, user, ctx.params.quoteId);
      ctx.body = presentQuote(
        row,
        await listOfframpsOfQuote(ctx.state.db, row.id),
        await listQuoteRefunds(ctx.state.db, row.id),
      );
    },
  );
}

/**
 * The records a request's path names, each found in the request's scope or answered with that record's 404
 * (`record_not_found`; the account never learns whether another account's record exists). The declaration
 * has already checked each parameter's form (declare.ts, `recordPath`).
 */
import { notFound } from '@checkout/core';
import {
  type Database,
  findMerchantExpectedPayment,
  findMerchantRefund,
  findMerchantResolvedPayment,
  findOfframp,
  findOnramp,
  findPaymentDetail,
  findProduct,
  findQuote,
  findRefundByToken,
  findScopedWebhookDelivery,
  findSession,
  findUndeliveredEmail,
  findUnmatchedTransfer,
  findUser,
  type OfframpRow,
  type QuoteRow,
  type UserRow,
} from '@checkout/db';
import type { RouterContext } from '@koa/router';
import type { Kysely } from 'kysely';
import type { AppState } from '../context.ts';

type Ctx = RouterContext<AppState>;
type WalletScope = { merchantId: string; addressId: string; testOnly: boolean };
type UserScope = { merchantId: string; userId: string };

/** The row, or the 404 of `what`. */
async function found<T>(what: string, row: Promise<T | undefined>): Promise<T> {
  const value = await row;
  if (value === undefined) throw notFound(what);
  return value;
}

/** The Area A scope: the merchant and the wallet of the request, and whether its key is a test key. */
export function walletScope(state: AppState): WalletScope {
  return {
    merchantId: state.merchant!.merchantId,
    addressId: state.address!.id,
    testOnly: state.merchant!.testOnly,
  };
}

/** The wallet's record of `:id` as `find` reads it, or the 404 of `what`. */
const ofWallet = <T>(
  ctx: Ctx,
  what: string,
  find: (db: Kysely<Database>, scope: WalletScope, id: string) => Promise<T | undefined>,
) => found(what, find(ctx.state.db, walletScope(ctx.state), ctx.params.id!));

/** The account's user of `:id`. */
export function userOfRequest(ctx: Ctx): Promise<UserRow> {
  return found('User', findUser(ctx.state.db, ctx.state.merchant!.merchantId, ctx.params.id!));
}

/** The scope of the user of `:id`. */
async function userScopeOfRequest(ctx: Ctx): Promise<UserScope> {
  const user = await userOfRequest(ctx);
  return { merchantId: user.merchant_id, userId: user.id };
}

/** The records of the user of `:id` that `list` lists. */
export const listOfUser = async <T>(
  ctx: Ctx,
  list: (db: Kysely<Database>, scope: UserScope) => Promise<T[]>,
) => list(ctx.state.db, await userScopeOfRequest(ctx));

/** The record of the user of `:id` that the path parameter `param` names, or the 404 of `what`. */
const ofUser = async <T>(
  ctx: Ctx,
  what: string,
  param: string,
  find: (db: Kysely<Database>, scope: UserScope, id: string) => Promise<T | undefined>,
) => found(what, find(ctx.state.db, await userScopeOfRequest(ctx), ctx.params[param]!));

/** The user's quote of `:quoteId`. */
export const quoteOfRequest = (ctx: Ctx) => ofUser(ctx, 'Quote', 'quoteId', findQuote);

/** The user's offramp of `:offrampId`. */
export const offrampOfRequest = (ctx: Ctx) => ofUser(ctx, 'Offramp', 'offrampId', findOfframp);

/** The user's onramp of `:onrampId`. */
export const onrampOfRequest = (ctx: Ctx) => ofUser(ctx, 'Onramp', 'onrampId', findOnramp);

/** The user's payment detail of `:detailId`. */
export const paymentDetailOfRequest = (ctx: Ctx) =>
  ofUser(ctx, 'Payment detail', 'detailId', findPaymentDetail);

/** The quote of `:quoteId` and its offramp of `:offrampId`. */
export async function quoteOfframpOfRequest(ctx: Ctx): Promise<{ quote: QuoteRow; row: OfframpRow }> {
  const quote = await quoteOfRequest(ctx);
  const scope = { merchantId: quote.merchant_id, userId: quote.user_id };
  const row = await found('Offramp', findOfframp(ctx.state.db, scope, ctx.params.offrampId!));
  if (row.quote_id !== quote.id) throw notFound('Offramp');
  return { quote, row };
}

/** The wallet's product of `:id`. */
export const productOfRequest = (ctx: Ctx) => ofWallet(ctx, 'Product', findProduct);

/** The wallet's expected payment of `:id`. */
export const expectedPaymentOfRequest = (ctx: Ctx) =>
  ofWallet(ctx, 'Expected payment', findMerchantExpectedPayment);

/** The wallet's webhook delivery of `:id`. */
export const webhookDeliveryOfRequest = (ctx: Ctx) =>
  ofWallet(ctx, 'Webhook delivery', findScopedWebhookDelivery);

/** The wallet's undelivered e-mail of `:id`. */
export const undeliveredEmailOfRequest = (ctx: Ctx) =>
  ofWallet(ctx, 'Undelivered e-mail', findUndeliveredEmail);

/** The wallet's resolved payment of `:id`. */
export const resolvedPaymentOfRequest = (ctx: Ctx) =>
  ofWallet(ctx, 'Resolved payment', findMerchantResolvedPayment);

/** The wallet's refund of `:id`. */
export const refundOfRequest = (ctx: Ctx) => ofWallet(ctx, 'Refund', findMerchantRefund);

/** The wallet's unmatched transfer of `:id`. */
export function unmatchedTransferOfRequest(ctx: Ctx) {
  return found(
    'Unmatched transfer',
    findUnmatchedTransfer(
      ctx.state.db,
      {
        merchantId: ctx.state.merchant!.merchantId,
        receivingAddress: ctx.state.address!.address,
        testOnly: ctx.state.merchant!.testOnly,
      },
      ctx.params.id!,
    ),
  );
}

/** The checkout session of `:id` (public: its id is the shopper's credential). */
export function sessionOfRequest(ctx: Ctx, db: Kysely<Database>) {
  return found('Checkout session', findSession(db, ctx.params.id!));
}

/** The refund of the claim page's or the pay page's `:token` (public: the token is the credential). */
export function refundOfToken(ctx: Ctx, db: Kysely<Database>, page: 'claim' | 'pay') {
  return found('Refund', findRefundByToken(db, page, ctx.params.token!));
}

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
  findUnmatchedTransfer,
  findUser,
  type OfframpRow,
  type OnrampRow,
  type PaymentDetailRow,
  type ProductRow,
  type QuoteRow,
  type UserRow,
} from '@checkout/db';
import type { RouterContext } from '@koa/router';
import type { Kysely } from 'kysely';
import type { AppState } from '../context.ts';

type Ctx = RouterContext<AppState>;

/** The row, or the 404 of `what`. */
async function found<T>(what: string, row: Promise<T | undefined>): Promise<T> {
  const value = await row;
  if (value === undefined) throw notFound(what);
  return value;
}

/** The Area A scope: the merchant and the wallet of the request. */
export function walletScope(state: AppState): { merchantId: string; addressId: string } {
  return { merchantId: state.merchant!.merchantId, addressId: state.address!.id };
}

const userScope = (user: UserRow) => ({ merchantId: user.merchant_id, userId: user.id });

/** The account's user of `:id`. */
export function userOfRequest(ctx: Ctx): Promise<UserRow> {
  return found('User', findUser(ctx.state.db, ctx.state.merchant!.merchantId, ctx.params.id!));
}

/** The user's quote of `:quoteId`. */
export function quoteOfRequest(ctx: Ctx, user: UserRow): Promise<QuoteRow> {
  return found('Quote', findQuote(ctx.state.db, userScope(user), ctx.params.quoteId!));
}

/** The user's offramp of `:offrampId`, of `quote` when given. */
export async function offrampOfRequest(ctx: Ctx, user: UserRow, quote?: QuoteRow): Promise<OfframpRow> {
  const row = await found('Offramp', findOfframp(ctx.state.db, userScope(user), ctx.params.offrampId!));
  if (quote && row.quote_id !== quote.id) throw notFound('Offramp');
  return row;
}

/** The user's onramp of `:onrampId`. */
export function onrampOfRequest(ctx: Ctx, user: UserRow): Promise<OnrampRow> {
  return found('Onramp', findOnramp(ctx.state.db, userScope(user), ctx.params.onrampId!));
}

/** The user's payment detail of `:detailId`. */
export function paymentDetailOfRequest(ctx: Ctx, user: UserRow): Promise<PaymentDetailRow> {
  return found('Payment detail', findPaymentDetail(ctx.state.db, userScope(user), ctx.params.detailId!));
}

/** The wallet's product of `:id`. */
export function productOfRequest(ctx: Ctx): Promise<ProductRow> {
  return found('Product', findProduct(ctx.state.db, walletScope(ctx.state), ctx.params.id!));
}

/** The wallet's expected payment of `:id`. */
export function expectedPaymentOfRequest(ctx: Ctx) {
  return found(
    'Expected payment',
    findMerchantExpectedPayment(ctx.state.db, walletScope(ctx.state), ctx.params.id!),
  );
}

/** The wallet's webhook delivery of `:id`. */
export function webhookDeliveryOfRequest(ctx: Ctx) {
  return found(
    'Webhook delivery',
    findScopedWebhookDelivery(ctx.state.db, walletScope(ctx.state), ctx.params.id!),
  );
}

/** The wallet's unmatched transfer of `:id`. */
export function unmatchedTransferOfRequest(ctx: Ctx) {
  return found(
    'Unmatched transfer',
    findUnmatchedTransfer(
      ctx.state.db,
      { merchantId: ctx.state.merchant!.merchantId, receivingAddress: ctx.state.address!.address },
      ctx.params.id!,
    ),
  );
}

/** The checkout session of `:id` (public: its id is the shopper's credential). */
export function sessionOfRequest(ctx: Ctx, db: Kysely<Database>) {
  return found('Checkout session', findSession(db, ctx.params.id!));
}

/** The wallet's resolved payment of `:id`. */
export function resolvedPaymentOfRequest(ctx: Ctx) {
  return found(
    'Resolved payment',
    findMerchantResolvedPayment(ctx.state.db, walletScope(ctx.state), ctx.params.id!),
  );
}

/** The wallet's refund of `:id`. */
export function refundOfRequest(ctx: Ctx) {
  return found('Refund', findMerchantRefund(ctx.state.db, walletScope(ctx.state), ctx.params.id!));
}

/** The refund of the claim page's or the pay page's `:token` (public: the token is the credential). */
export function refundOfToken(ctx: Ctx, db: Kysely<Database>, page: 'claim' | 'pay') {
  return found('Refund', findRefundByToken(db, page, ctx.params.token!));
}

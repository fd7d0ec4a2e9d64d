/**
 * A wallet's resolved payments as the console lists and exports them: filtered, searched by transaction hash,
 * e-mail or id, newest first, a page at a time after a cursor (the last row's id: the page goes on below that
 * row's `(created_at, id)`, so rows made meanwhile never shift it).
 */
import type { PaymentExceptionStatus } from '@checkout/core';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database, ProductRow, ResolvedPaymentRow } from '../schema.ts';
import { paymentSweepGas } from './depositSweeps.ts';
import type { WalletScope } from './walletScope.ts';

/** What the list keeps: every field optional. */
export interface PaymentSearchFilter {
  /** One payment by its id. */
  id?: string | undefined;
  productId?: string | undefined;
  /** `succeeded`: the transaction went through and still stands; `failed`: it failed; `reversed`: a reorg took it. */
  status?: 'succeeded' | 'failed' | 'reversed' | undefined;
  exception?: PaymentExceptionStatus | undefined;
  /** Test networks' payments or live ones. */
  mode?: 'test' | 'live' | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  /** A transaction hash (`0x` and 64 hex digits), an e-mail (has `@`), or a payment's, order's or session's id. */
  search?: string | undefined;
}

/** A resolved payment with its product's slug and secret, as the presenter needs them. */
export type SearchedPayment = ResolvedPaymentRow &
  Pick<ProductRow, 'slug' | 'secret_ciphertext'> & { paid_twice: boolean; sweep_gas_wei: string | null };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const txHash = /^0x[0-9a-f]{64}$/i;

/** Whether an open duplicate transfer of the payment waits (its `paid_twice`). */
const paidTwice = sql<boolean>`exists (select 1 from unmatched_transfers u
  where u.resolved_payment_id = resolved_payments.id and u.kind = 'duplicate' and u.status = 'open')`;

/** The payment's exception in SQL, in the order `paymentExceptionStatus` (packages/core) decides it. */
const exceptionOf = sql<string | null>`case
  when resolved_payments.reversed_at is not null then 'reversed'
  when resolved_payments.tx_failure then null
  when resolved_payments.refunded_amount > 0 then
    case when resolved_payments.refunded_amount >= resolved_payments.received_token_amount
      then 'refunded' else 'partially_refunded' end
  when ${paidTwice} then 'paid_twice'
  when resolved_payments.received_token_amount * power(10::numeric, (resolved_payments.expected_token->>'decimal_count')::int)
    < resolved_payments.expected_token_amount * power(10::numeric, (resolved_payments.received_token->>'decimal_count')::int)
    then 'paid_partially'
  when resolved_payments.received_token_amount * power(10::numeric, (resolved_payments.expected_token->>'decimal_count')::int)
    > resolved_payments.expected_token_amount * power(10::numeric, (resolved_payments.received_token->>'decimal_count')::int)
    then 'paid_over'
  when resolved_payments.late then 'paid_late'
end`;

/** The condition a search term sets: which field it is read as follows from its form. */
function searchCondition(search: string): Expression<SqlBool> {
  const term = search.trim();
  if (txHash.test(term)) return sql<SqlBool>`resolved_payments.tx_id = ${term.toLowerCase()}`;
  if (uuid.test(term)) {
    const id = term.toLowerCase();
    return sql<SqlBool>`(resolved_payments.id = ${id} or resolved_payments.expected_payment_id = ${id}
      or exists (select 1 from checkout_sessions s where s.id = ${id} and s.resolved_payment_id = resolved_payments.id))`;
  }
  if (term.includes('@')) return sql<SqlBool>`lower(resolved_payments.user_email) = ${term.toLowerCase()}`;
  // Nothing else names a payment: the search finds none rather than everything.
  return sql<SqlBool>`false`;
}

/**
 * The wallet's resolved payments matching `filter`, newest first: at most `limit` after the row `after`
 * (the previous page's last id; an id naming no payment gives an empty page).
 */
export async function searchResolvedPayments(
  db: Kysely<Database>,
  scope: WalletScope,
  filter: PaymentSearchFilter,
  page: { limit: number; after?: string | undefined },
): Promise<SearchedPayment[]> {
  let query = db
    .selectFrom('resolved_payments')
    .innerJoin('products', 'products.id', 'resolved_payments.product_id')
    .selectAll('resolved_payments')
    .select([
      'products.slug',
      'products.secret_ciphertext',
      paidTwice.as('paid_twice'),
      paymentSweepGas.as('sweep_gas_wei'),
    ])
    .where('products.merchant_id', '=', scope.merchantId)
    .where('products.address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where('resolved_payments.is_test', '=', true));
  if (filter.id) query = query.where('resolved_payments.id', '=', filter.id);
  if (filter.productId) query = query.where('resolved_payments.product_id', '=', filter.productId);
  if (filter.mode) query = query.where('resolved_payments.is_test', '=', filter.mode === 'test');
  if (filter.since) query = query.where('resolved_payments.created_at', '>=', filter.since);
  if (filter.until) query = query.where('resolved_payments.created_at', '<', filter.until);
  if (filter.status === 'reversed') query = query.where('resolved_payments.reversed_at', 'is not', null);
  if (filter.status === 'failed') query = query.where('resolved_payments.tx_failure', '=', true);
  if (filter.status === 'succeeded')
    query = query
      .where('resolved_payments.tx_failure', '=', false)
      .where('resolved_payments.reversed_at', 'is', null);
  if (filter.exception) query = query.where(sql<SqlBool>`${exceptionOf} = ${filter.exception}`);
  if (filter.search) query = query.where(searchCondition(filter.search));
  if (page.after) {
    query = query.where(
      sql<SqlBool>`(resolved_payments.created_at, resolved_payments.id) <
        (select c.created_at, c.id from resolved_payments c where c.id = ${page.after})`,
    );
  }
  return query
    .orderBy('resolved_payments.created_at', 'desc')
    .orderBy('resolved_payments.id', 'desc')
    .limit(page.limit)
    .execute();
}

/**
 * What a wallet's standing payments (not failed, not reversed) received over a time window: the sum per
 * chain and token, in base units summed exactly by the database, and the count per day (UTC).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';
import type { WalletScope } from './walletScope.ts';

/** One chain and token's sum (base units, numeric as text) and count. */
export interface PaymentVolumeRow {
  chain_id: number;
  blockchain: string;
  network: string;
  token_address: string;
  symbol: string;
  decimal_count: number;
  units: string;
  payments: number;
}

/** The window and mode of a sum. */
export interface PaymentVolumeWindow {
  since: Date;
  until: Date;
  mode?: 'test' | 'live' | undefined;
}

/** The wallet's standing payments in `window`, as a query to group. */
function standing(db: Kysely<Database>, scope: WalletScope, window: PaymentVolumeWindow) {
  return db
    .selectFrom('resolved_payments')
    .innerJoin('products', 'products.id', 'resolved_payments.product_id')
    .where('products.merchant_id', '=', scope.merchantId)
    .where('products.address_id', '=', scope.addressId)
    .where('resolved_payments.created_at', '>=', window.since)
    .where('resolved_payments.created_at', '<', window.until)
    .where('resolved_payments.reversed_at', 'is', null)
    .where('resolved_payments.tx_failure', '=', false)
    .$if(Boolean(scope.testOnly), (q) => q.where('resolved_payments.is_test', '=', true))
    .$if(window.mode !== undefined, (q) => q.where('resolved_payments.is_test', '=', window.mode === 'test'));
}

/** The sums per chain and token and the counts per day of the wallet's standing payments in `window`. */
export async function sumWalletPayments(
  db: Kysely<Database>,
  scope: WalletScope,
  window: PaymentVolumeWindow,
): Promise<{ volumes: PaymentVolumeRow[]; days: Array<{ day: string; payments: number }> }> {
  const token = (field: string) => sql<string>`resolved_payments.received_token->>${sql.lit(field)}`;
  const [volumes, days] = await Promise.all([
    standing(db, scope, window)
      .select([
        'resolved_payments.chain_id',
        token('blockchain').as('blockchain'),
        token('network').as('network'),
        token('address').as('token_address'),
        token('symbol').as('symbol'),
        sql<number>`(resolved_payments.received_token->>'decimal_count')::int`.as('decimal_count'),
        sql<string>`sum(resolved_payments.received_token_amount)::text`.as('units'),
        sql<number>`count(*)::int`.as('payments'),
      ])
      .groupBy([
        'resolved_payments.chain_id',
        token('blockchain'),
        token('network'),
        token('address'),
        token('symbol'),
        sql`(resolved_payments.received_token->>'decimal_count')::int`,
      ])
      .orderBy('resolved_payments.chain_id')
      .orderBy(token('symbol'))
      .execute(),
    standing(db, scope, window)
      .select([
        sql<string>`to_char(resolved_payments.created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
        sql<number>`count(*)::int`.as('payments'),
      ])
      .groupBy(sql`1`)
      .orderBy(sql`1`)
      .execute(),
  ]);
  return { volumes, days };
}

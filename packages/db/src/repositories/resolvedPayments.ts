/** Resolved payments: one row per on-chain transfer into a merchant wallet. */
import { type Kysely, sql } from 'kysely';
import type { CheckoutSessionRow } from '../checkoutSchema.ts';
import type { Database, ResolvedPaymentRow, ResolvedPaymentsTable } from '../schema.ts';
import { checkoutSessionTransitions, checkTransition } from '../transitions.ts';
import { lockSession } from './checkout.ts';
import { paymentSweepGas } from './depositSweeps.ts';
import type { WalletScope } from './walletScope.ts';

/** Resolved payments of a product, newest first, each with its share of its deposit address's sweeps' gas. */
export async function listResolvedPayments(
  db: Kysely<Database>,
  productId: string,
): Promise<Array<ResolvedPaymentRow & { sweep_gas_wei: string | null }>> {
  return db
    .selectFrom('resolved_payments')
    .selectAll()
    .select(paymentSweepGas.as('sweep_gas_wei'))
    .where('product_id', '=', productId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A resolved payment by id, or undefined. */
export async function findResolvedPayment(
  db: Kysely<Database>,
  id: string,
): Promise<ResolvedPaymentRow | undefined> {
  return db.selectFrom('resolved_payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A resolved payment to record, as the resolution computed it. */
export type NewResolvedPayment = Omit<
  import('kysely').Insertable<ResolvedPaymentsTable>,
  'created_at' | 'metadata' | 'custom_fields' | 'expected_token' | 'received_token'
> & {
  metadata: Record<string, unknown> | null;
  custom_fields: Record<string, string>;
  expected_token: CheckoutSessionRow['expected_token'];
  received_token: CheckoutSessionRow['expected_token'];
};

/**
 * Records the resolved payment of a session exactly once (unique on chain, tx hash and log index)
 * and closes the session and its expected payment, in one transaction. `onRecorded` runs inside
 * that transaction, for writes that must commit with it (such as the webhook delivery).
 */
export async function recordResolvedPayment(
  db: Kysely<Database>,
  input: { sessionId: string; payment: NewResolvedPayment; late: boolean },
  onRecorded?: (trx: Kysely<Database>, resolvedPaymentId: string, created: boolean) => Promise<void>,
): Promise<{ resolvedPaymentId: string; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const { payment } = input;
    // The session's move is one its machine has: a closed attempt takes no payment.
    const session = await lockSession(trx, input.sessionId).executeTakeFirstOrThrow();
    const status = payment.tx_failure ? 'failed' : 'resolved';
    checkTransition('checkout session', checkoutSessionTransitions, session.status, status);
    const inserted = await trx
      .insertInto('resolved_payments')
      .values({
        ...payment,
        metadata: JSON.stringify(payment.metadata),
        custom_fields: JSON.stringify(payment.custom_fields),
        expected_token: JSON.stringify(payment.expected_token),
        received_token: JSON.stringify(payment.received_token),
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['chain_id', 'tx_id', 'log_index']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const { id: resolvedPaymentId } =
      inserted ??
      (await trx
        .selectFrom('resolved_payments')
        .select('id')
        .where('chain_id', '=', payment.chain_id)
        .where('tx_id', '=', payment.tx_id)
        .where('log_index', '=', payment.log_index)
        .executeTakeFirstOrThrow());
    await trx
      .updateTable('checkout_sessions')
      .set({
        status,
        resolved_payment_id: resolvedPaymentId,
        tx_hash: payment.tx_id,
        late: input.late,
        error: null,
        updated_at: now,
      })
      .where('id', '=', input.sessionId)
      .execute();
    await trx
      .updateTable('expected_payments')
      .set({
        status: payment.tx_failure ? 'failed' : 'paid',
        resolved_payment_id: resolvedPaymentId,
        updated_at: now,
      })
      .where('id', '=', payment.expected_payment_id)
      .execute();
    // The session is closed: its reserved amount is free for another.
    await trx.deleteFrom('checkout_payment_amounts').where('session_id', '=', input.sessionId).execute();
    if (onRecorded) await onRecorded(trx, resolvedPaymentId, Boolean(inserted));
    return { resolvedPaymentId, created: Boolean(inserted) };
  });
}

/** A resolved payment of the merchant's wallet (through its product), with its product. */
export async function findMerchantResolvedPayment(
  db: Kysely<Database>,
  scope: WalletScope,
  id: string,
): Promise<ResolvedPaymentRow | undefined> {
  return db
    .selectFrom('resolved_payments')
    .innerJoin('products', 'products.id', 'resolved_payments.product_id')
    .selectAll('resolved_payments')
    .where('resolved_payments.id', '=', id)
    .where('products.merchant_id', '=', scope.merchantId)
    .where('products.address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where('resolved_payments.is_test', '=', true))
    .executeTakeFirst();
}

/**
 * Adds a top-up (base units of the payment's received token) to what the payment received, with the
 * difference to the expected amount computed anew; the updated row.
 */
export async function addTopUp(
  db: Kysely<Database>,
  id: string,
  topUp: { amount: bigint; amountDifference: (received: bigint) => string },
): Promise<ResolvedPaymentRow> {
  const row = await db
    .selectFrom('resolved_payments')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const received = BigInt(row.received_token_amount) + topUp.amount;
  return db
    .updateTable('resolved_payments')
    .set({ received_token_amount: received.toString(), amount_difference: topUp.amountDifference(received) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Resolved payments on the chain in blocks `fromBlock` to `toBlock` (excluded) that still stand, whose block
 * the chain's watcher no longer vouches for: it holds no record of their transfer in that same block (a
 * reorganisation made it forget or re-read it). Failed payments (nothing was paid) are left out.
 */
export async function listPaymentsToRecheck(
  db: Kysely<Database>,
  input: { chainId: number; fromBlock: bigint; toBlock: bigint },
): Promise<ResolvedPaymentRow[]> {
  return db
    .selectFrom('resolved_payments')
    .leftJoin('chain_transfers', (join) =>
      join
        .onRef('chain_transfers.chain_id', '=', 'resolved_payments.chain_id')
        .onRef('chain_transfers.tx_hash', '=', 'resolved_payments.tx_id')
        .onRef('chain_transfers.log_index', '=', 'resolved_payments.log_index'),
    )
    .selectAll('resolved_payments')
    .where('resolved_payments.chain_id', '=', input.chainId)
    .where('resolved_payments.reversed_at', 'is', null)
    .where('resolved_payments.tx_failure', '=', false)
    .where(sql<boolean>`resolved_payments.block_number >= ${input.fromBlock.toString()}::numeric`)
    .where(sql<boolean>`resolved_payments.block_number < ${input.toBlock.toString()}::numeric`)
    .where((eb) =>
      eb.or([
        eb('chain_transfers.block_hash', 'is', null),
        eb('chain_transfers.block_hash', '!=', eb.ref('resolved_payments.block_hash')),
      ]),
    )
    .limit(100)
    .execute();
}

/** Marks a payment reversed: its transaction left the chain. Undefined when it was marked already. */
export async function markPaymentReversed(
  db: Kysely<Database>,
  id: string,
): Promise<ResolvedPaymentRow | undefined> {
  return db
    .updateTable('resolved_payments')
    .set({ reversed_at: new Date() })
    .where('id', '=', id)
    .where('reversed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Moves a payment to the block that holds its transaction now. Undefined when it is there already. */
export async function movePaymentBlock(
  db: Kysely<Database>,
  id: string,
  block: { number: bigint; hash: string },
): Promise<ResolvedPaymentRow | undefined> {
  return db
    .updateTable('resolved_payments')
    .set({ block_number: block.number.toString(), block_hash: block.hash.toLowerCase() })
    .where('id', '=', id)
    .where('block_hash', '!=', block.hash.toLowerCase())
    .returningAll()
    .executeTakeFirst();
}

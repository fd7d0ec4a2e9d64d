/** Quote refunds: tokens of an incoming transaction that no payout uses, returned to their sender once. */
import type { Kysely } from 'kysely';
import type { QuoteRefundReason, QuoteRefundRow, RefundStatus } from '../rampsSchema.ts';
import type { Database } from '../schema.ts';

/** A refund to record: tokens of one incoming transaction that no payout uses. */
export interface NewQuoteRefund {
  id: string;
  quoteId: string;
  reason: QuoteRefundReason;
  /** Lower-case hash of the incoming transaction. */
  depositTxHash: string;
  /** Token base units. */
  amount: bigint;
  address: string;
}

/**
 * Records a refund unless the quote already has one for the incoming transaction: the new row, or
 * undefined when one existed (a deposit is never returned twice).
 */
export async function insertQuoteRefund(
  db: Kysely<Database>,
  refund: NewQuoteRefund,
): Promise<QuoteRefundRow | undefined> {
  const now = new Date();
  return db
    .insertInto('quote_refunds')
    .values({
      id: refund.id,
      quote_id: refund.quoteId,
      reason: refund.reason,
      deposit_tx_hash: refund.depositTxHash.toLowerCase(),
      amount: refund.amount.toString(),
      address: refund.address,
      status: 'pending',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['quote_id', 'deposit_tx_hash']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** The quote's refund of an incoming transaction, if any. */
export async function findQuoteRefundOfDeposit(
  db: Kysely<Database>,
  quoteId: string,
  depositTxHash: string,
): Promise<QuoteRefundRow | undefined> {
  return db
    .selectFrom('quote_refunds')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .where('deposit_tx_hash', '=', depositTxHash.toLowerCase())
    .executeTakeFirst();
}

/** A refund by id. */
export async function findQuoteRefundById(
  db: Kysely<Database>,
  id: string,
): Promise<QuoteRefundRow | undefined> {
  return db.selectFrom('quote_refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The refunds of a quote, oldest first. */
export async function listQuoteRefunds(db: Kysely<Database>, quoteId: string): Promise<QuoteRefundRow[]> {
  return db
    .selectFrom('quote_refunds')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Ends a pending refund (`sent` or `failed`); undefined when it was no longer pending. */
export async function finishQuoteRefund(
  db: Kysely<Database>,
  id: string,
  status: Exclude<RefundStatus, 'pending'>,
): Promise<QuoteRefundRow | undefined> {
  return db
    .updateTable('quote_refunds')
    .set({ status, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

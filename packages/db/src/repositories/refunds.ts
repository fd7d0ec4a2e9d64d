/** Refunds: recorded once per request, found by their pages' tokens, moved through their states. */
import { createHash } from 'node:crypto';
import { standingRefundStatuses } from '@checkout/core';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { RefundRow, RefundRowStatus, RefundsTable } from '../refundSchema.ts';
import type { Database } from '../schema.ts';

/** SHA-256 (hex) of a page token (a refund's claim or pay page, a KYC page): stored to find its record. */
export function pageTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new refund row (ids, tokens and times chosen by the caller). */
export type NewRefund = Omit<
  Insertable<RefundsTable>,
  'tx_hash' | 'log_index' | 'block_number' | 'sent_at' | 'confirmed_at' | 'updated_at'
> & { created_at: Date };

/** Records a refund. */
export async function insertRefund(db: Kysely<Database>, input: NewRefund): Promise<RefundRow> {
  return db
    .insertInto('refunds')
    .values({ ...input, updated_at: input.created_at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A refund by id (for workflows, which run with no merchant scope). */
export async function findRefundById(db: Kysely<Database>, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A refund by id, within the merchant's receiving wallet. */
export async function findMerchantRefund(
  db: Kysely<Database>,
  scope: { merchantId: string; addressId: string },
  id: string,
): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', scope.merchantId)
    .where('address_id', '=', scope.addressId)
    .executeTakeFirst();
}

/** A refund by the token of its claim page (`claim`) or of its pay page (`pay`). */
export async function findRefundByToken(
  db: Kysely<Database>,
  page: 'claim' | 'pay',
  token: string,
): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where(page === 'claim' ? 'claim_token_hash' : 'pay_token_hash', '=', pageTokenHash(token))
    .executeTakeFirst();
}

/** Filters of the merchant's list. */
export interface RefundFilter {
  status?: RefundRowStatus | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  resolvedPaymentId?: string | undefined;
  unmatchedTransferId?: string | undefined;
}

/** The wallet's refunds, newest first (at most `limit`). */
export async function listRefunds(
  db: Kysely<Database>,
  scope: { merchantId: string; addressId: string },
  filter: RefundFilter,
  limit = 500,
): Promise<RefundRow[]> {
  let query = db
    .selectFrom('refunds')
    .selectAll()
    .where('merchant_id', '=', scope.merchantId)
    .where('address_id', '=', scope.addressId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.since) query = query.where('created_at', '>=', filter.since);
  if (filter.until) query = query.where('created_at', '<', filter.until);
  if (filter.resolvedPaymentId) query = query.where('resolved_payment_id', '=', filter.resolvedPaymentId);
  if (filter.unmatchedTransferId)
    query = query.where('unmatched_transfer_id', '=', filter.unmatchedTransferId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Base units that the standing refunds (not canceled or expired) of a resolved payment or an unmatched
 * transfer ask for. Call it in the transaction that records a new refund, after locking the subject's row.
 */
export async function standingRefundUnits(
  db: Kysely<Database>,
  subject: { resolvedPaymentId: string } | { unmatchedTransferId: string },
): Promise<bigint> {
  const row = await db
    .selectFrom('refunds')
    .select(sql<string>`coalesce(sum(amount), 0)::text`.as('total'))
    .where(
      'resolvedPaymentId' in subject ? 'resolved_payment_id' : 'unmatched_transfer_id',
      '=',
      'resolvedPaymentId' in subject ? subject.resolvedPaymentId : subject.unmatchedTransferId,
    )
    .where('status', 'in', standingRefundStatuses)
    .executeTakeFirstOrThrow();
  return BigInt(row.total);
}

/** Locks a resolved payment's row until the transaction ends (refunds of one payment are recorded one at a time). */
export async function lockResolvedPayment(db: Kysely<Database>, id: string): Promise<void> {
  await db.selectFrom('resolved_payments').select('id').where('id', '=', id).forUpdate().execute();
}

/** What a state change writes besides the status. */
export interface RefundChange {
  refund_address?: string | null;
  address_source?: 'merchant' | 'customer' | null;
  tx_hash?: string | null;
  log_index?: number | null;
  block_number?: string | null;
  sent_at?: Date | null;
  confirmed_at?: Date | null;
}

/**
 * Moves a refund from one of `from` to `to` with `change`; undefined when it is no longer in one of `from`
 * (another request or the watcher moved it first).
 */
export async function moveRefund(
  db: Kysely<Database>,
  id: string,
  from: readonly RefundRowStatus[],
  to: RefundRowStatus,
  change: RefundChange = {},
): Promise<RefundRow | undefined> {
  return db
    .updateTable('refunds')
    .set({ ...change, status: to, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

/** The refunds of an unmatched transfer not paid yet (`awaiting_address`, `ready_to_pay`). */
export async function listUnpaidRefundsOfTransfer(
  db: Kysely<Database>,
  unmatchedTransferId: string,
): Promise<RefundRow[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('unmatched_transfer_id', '=', unmatchedTransferId)
    .where('status', 'in', ['awaiting_address', 'ready_to_pay'])
    .execute();
}

/** Refunds waiting for their transfer on a chain (the chain's watcher looks for these). */
export async function listRefundsReadyToPay(db: Kysely<Database>, chainId: number): Promise<RefundRow[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('status', '=', 'ready_to_pay')
    .orderBy('created_at')
    .limit(1000)
    .execute();
}

/** Adds a confirmed refund's base units to what its resolved payment gave back. */
export async function addRefundedAmount(
  db: Kysely<Database>,
  resolvedPaymentId: string,
  units: bigint,
): Promise<void> {
  await db
    .updateTable('resolved_payments')
    .set({ refunded_amount: sql<string>`refunded_amount + ${units.toString()}::numeric` })
    .where('id', '=', resolvedPaymentId)
    .execute();
}

/**
 * Gives an unmatched transfer whose refund was canceled or expired back to the merchant (`refunded` → `open`),
 * unless another refund of it still stands.
 */
export async function reopenRefundedTransfer(
  db: Kysely<Database>,
  unmatchedTransferId: string,
): Promise<void> {
  if ((await standingRefundUnits(db, { unmatchedTransferId })) > 0n) return;
  await db
    .updateTable('unmatched_transfers')
    .set({ status: 'open', updated_at: new Date() })
    .where('id', '=', unmatchedTransferId)
    .where('status', '=', 'refunded')
    .execute();
}

/**
 * Which of the transfers (chain, hash, log index) pay a refund already: such a transfer goes out of a
 * receiving address and is never a checkout's payment. Keys `<hash>:<log index>`, hashes lowercase.
 */
export async function listRefundTransfers(
  db: Kysely<Database>,
  chainId: number,
  txHashes: readonly string[],
): Promise<Set<string>> {
  if (txHashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('refunds')
    .select(['tx_hash', 'log_index'])
    .where('chain_id', '=', chainId)
    .where(
      'tx_hash',
      'in',
      txHashes.map((h) => h.toLowerCase()),
    )
    .execute();
  return new Set(rows.map((r) => `${r.tx_hash}:${r.log_index}`));
}

/** The names the customer's claim page shows: the merchant's and the refunded product's (null when unknown). */
export async function findRefundNames(
  db: Kysely<Database>,
  row: Pick<RefundRow, 'merchant_id' | 'product_id'>,
): Promise<{ merchantName: string | null; productName: string | null }> {
  const [merchant, product] = await Promise.all([
    db.selectFrom('merchants').select('name').where('id', '=', row.merchant_id).executeTakeFirst(),
    row.product_id
      ? db.selectFrom('products').select('name').where('id', '=', row.product_id).executeTakeFirst()
      : undefined,
  ]);
  return { merchantName: merchant?.name ?? null, productName: product?.name ?? null };
}

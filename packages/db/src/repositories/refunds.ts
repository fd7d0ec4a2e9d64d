/** Refunds: recorded once per request, found by their pages' tokens, moved through their states. */
import { createHash } from 'node:crypto';
import { formatUnits, standingRefundStatuses } from '@checkout/core';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { RefundRow, RefundRowStatus, RefundsTable } from '../refundSchema.ts';
import type { Database } from '../schema.ts';
import { refundTransitions, statusesMovingTo, unmatchedTransferTransitions } from '../transitions.ts';
import { storedTokenNetwork, type WalletScope } from './walletScope.ts';

/** SHA-256 (hex) of a page token (a refund's claim or pay page, a KYC page): stored to find its record. */
export function pageTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new refund row (ids, tokens and times chosen by the caller). */
export type NewRefund = Omit<
  Insertable<RefundsTable>,
  'tx_hash' | 'log_index' | 'block_number' | 'sent_at' | 'confirmed_at' | 'updated_at' | 'paid_amount'
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
  scope: WalletScope,
  id: string,
): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', scope.merchantId)
    .where('address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where(storedTokenNetwork('token'), '=', 'testnet'))
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
  scope: WalletScope,
  filter: RefundFilter,
  limit = 500,
): Promise<RefundRow[]> {
  let query = db
    .selectFrom('refunds')
    .selectAll()
    .where('merchant_id', '=', scope.merchantId)
    .where('address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where(storedTokenNetwork('token'), '=', 'testnet'));
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.since) query = query.where('created_at', '>=', filter.since);
  if (filter.until) query = query.where('created_at', '<', filter.until);
  if (filter.resolvedPaymentId) query = query.where('resolved_payment_id', '=', filter.resolvedPaymentId);
  if (filter.unmatchedTransferId)
    query = query.where('unmatched_transfer_id', '=', filter.unmatchedTransferId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Base units that the refunds of a resolved payment or an unmatched transfer take from it: what each standing
 * refund (not canceled or expired) asks for, or was paid when paid more, and what a canceled or expired one was
 * paid in part before it ended. Call it in the transaction that records a new refund, after locking the
 * subject's row.
 */
export async function standingRefundUnits(
  db: Kysely<Database>,
  subject: { resolvedPaymentId: string } | { unmatchedTransferId: string },
): Promise<bigint> {
  const row = await db
    .selectFrom('refunds')
    .select(
      sql<string>`coalesce(sum(case when status in (${sql.join(standingRefundStatuses)})
        then greatest(amount, paid_amount) else paid_amount end), 0)::text`.as('total'),
    )
    .where(
      'resolvedPaymentId' in subject ? 'resolved_payment_id' : 'unmatched_transfer_id',
      '=',
      'resolvedPaymentId' in subject ? subject.resolvedPaymentId : subject.unmatchedTransferId,
    )
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
  cancel_reason?: string | null;
}

/**
 * Moves a refund to `to` with `change`, from one of `from` (each a move of `refundTransitions`), by default
 * from any status the machine moves to `to` from; undefined when it is in none of them (another request or
 * the watcher moved it first).
 */
export async function moveRefund(
  db: Kysely<Database>,
  id: string,
  move: { to: RefundRowStatus; from?: readonly RefundRowStatus[] },
  change: RefundChange = {},
): Promise<RefundRow | undefined> {
  return db
    .updateTable('refunds')
    .set({ ...change, status: move.to, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', 'in', statusesMovingTo('refund', refundTransitions, move.to, move.from))
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

/** The latest refund of an unmatched transfer (the one a refunded transfer stands on), or undefined. */
export async function findLatestRefundOfTransfer(
  db: Kysely<Database>,
  unmatchedTransferId: string,
): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('unmatched_transfer_id', '=', unmatchedTransferId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
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
    .where(
      'status',
      'in',
      statusesMovingTo('unmatched transfer', unmatchedTransferTransitions, 'open', ['refunded']),
    )
    .execute();
}

/**
 * Which of the transfers (chain, hash, log index) pay a refund already, wholly or in part: such a transfer
 * goes out of a receiving address and is never a checkout's payment. Keys `<hash>:<log index>`, hashes
 * lowercase.
 */
export async function listRefundTransfers(
  db: Kysely<Database>,
  chainId: number,
  txHashes: readonly string[],
): Promise<Set<string>> {
  if (txHashes.length === 0) return new Set();
  const hashes = txHashes.map((h) => h.toLowerCase());
  const [completing, recorded] = await Promise.all([
    db
      .selectFrom('refunds')
      .select(['tx_hash', 'log_index'])
      .where('chain_id', '=', chainId)
      .where('tx_hash', 'in', hashes)
      .execute(),
    db
      .selectFrom('refund_transfers')
      .select(['tx_hash', 'log_index'])
      .where('chain_id', '=', chainId)
      .where('tx_hash', 'in', hashes)
      .execute(),
  ]);
  return new Set([...completing, ...recorded].map((r) => `${r.tx_hash}:${r.log_index}`));
}

/** A transfer out recorded against a refund. */
export interface RefundTransferFact {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  amount: bigint;
}

/**
 * Records a transfer against a refund still ready to pay and adds it to what the refund was paid, in the
 * caller's transaction; the refund as it now stands, or undefined when the transfer was recorded already or
 * the refund is no longer ready to pay.
 */
export async function recordRefundTransfer(
  db: Kysely<Database>,
  refundId: string,
  transfer: RefundTransferFact,
): Promise<RefundRow | undefined> {
  const ready = await db
    .selectFrom('refunds')
    .select('id')
    .where('id', '=', refundId)
    .where('status', '=', 'ready_to_pay')
    .forUpdate()
    .executeTakeFirst();
  if (!ready) return undefined;
  const inserted = await db
    .insertInto('refund_transfers')
    .values({
      chain_id: transfer.chainId,
      tx_hash: transfer.txHash.toLowerCase(),
      log_index: transfer.logIndex,
      refund_id: refundId,
      block_number: transfer.blockNumber.toString(),
      amount: transfer.amount.toString(),
      created_at: new Date(),
    })
    .onConflict((c) => c.doNothing())
    .returning('tx_hash')
    .executeTakeFirst();
  if (!inserted) return undefined;
  return db
    .updateTable('refunds')
    .set({ paid_amount: sql<string>`paid_amount + ${transfer.amount.toString()}::numeric` })
    .where('id', '=', refundId)
    .returningAll()
    .executeTakeFirst();
}

/** The transfers recorded against a refund, in chain order. */
export async function listTransfersOfRefund(
  db: Kysely<Database>,
  refundId: string,
): Promise<
  Array<{ tx_hash: string; log_index: number; block_number: string; amount: string; created_at: Date }>
> {
  return db
    .selectFrom('refund_transfers')
    .select(['tx_hash', 'log_index', 'block_number', 'amount', 'created_at'])
    .where('refund_id', '=', refundId)
    .orderBy(sql`block_number::numeric`)
    .orderBy('log_index')
    .execute();
}

/** Follows a transfer recorded against a refund to the block that holds it now (mined again elsewhere). */
export async function moveRefundTransfer(
  db: Kysely<Database>,
  input: { refundId: string; txHash: string; blockNumber: bigint },
): Promise<void> {
  await db
    .updateTable('refund_transfers')
    .set({ block_number: input.blockNumber.toString() })
    .where('refund_id', '=', input.refundId)
    .where('tx_hash', '=', input.txHash.toLowerCase())
    .execute();
}

/**
 * Forgets the transfers of one transaction recorded against a refund (a reorganisation took it away) and
 * takes them off what the refund was paid.
 */
export async function forgetRefundTransfers(
  db: Kysely<Database>,
  refundId: string,
  txHash: string,
): Promise<void> {
  const gone = await db
    .deleteFrom('refund_transfers')
    .where('refund_id', '=', refundId)
    .where('tx_hash', '=', txHash.toLowerCase())
    .returning('amount')
    .execute();
  const units = gone.reduce((sum, r) => sum + BigInt(r.amount), 0n);
  if (units === 0n) return;
  await db
    .updateTable('refunds')
    .set({ paid_amount: sql<string>`paid_amount - ${units.toString()}::numeric` })
    .where('id', '=', refundId)
    .execute();
}

/** What the refund pages show of a refund's merchant and of the order it refunds. */
export interface RefundContext {
  merchantName: string | null;
  /** The product's name (its business name) and e-mail, when the refund has a product. */
  product: { name: string; email: string } | null;
  /** The resolved payment or unmatched transfer refunded, as the customer made it. */
  order: {
    resolvedPaymentId: string | null;
    dollarAmount: string | null;
    /** Token units (a decimal string). */
    paidAmount: string;
    paidTokenSymbol: string;
    paidAt: Date;
  } | null;
  /** The transfers recorded against the refund (its part payments), in chain order. */
  parts: Array<{ tx_hash: string; amount: string; created_at: Date }>;
}

/** The merchant, product and order of a refund, as its pages name them (nulls when unknown). */
export async function findRefundContext(
  db: Kysely<Database>,
  row: Pick<RefundRow, 'id' | 'merchant_id' | 'product_id' | 'resolved_payment_id' | 'unmatched_transfer_id'>,
): Promise<RefundContext> {
  const [merchant, product, payment, transfer, parts] = await Promise.all([
    db.selectFrom('merchants').select('name').where('id', '=', row.merchant_id).executeTakeFirst(),
    row.product_id
      ? db
          .selectFrom('products')
          .select(['name', 'email'])
          .where('id', '=', row.product_id)
          .executeTakeFirst()
      : undefined,
    row.resolved_payment_id
      ? db
          .selectFrom('resolved_payments')
          .select(['id', 'dollar_amount', 'received_token', 'received_token_amount', 'created_at'])
          .where('id', '=', row.resolved_payment_id)
          .executeTakeFirst()
      : undefined,
    row.unmatched_transfer_id
      ? db
          .selectFrom('unmatched_transfers')
          .select(['amount', 'token', 'created_at'])
          .where('id', '=', row.unmatched_transfer_id)
          .executeTakeFirst()
      : undefined,
    listTransfersOfRefund(db, row.id),
  ]);
  const order: RefundContext['order'] = payment
    ? {
        resolvedPaymentId: payment.id,
        dollarAmount: payment.dollar_amount,
        paidAmount: formatUnits(BigInt(payment.received_token_amount), payment.received_token.decimal_count),
        paidTokenSymbol: payment.received_token.symbol,
        paidAt: payment.created_at,
      }
    : transfer
      ? {
          resolvedPaymentId: null,
          dollarAmount: null,
          paidAmount: formatUnits(BigInt(transfer.amount), transfer.token.decimal_count),
          paidTokenSymbol: transfer.token.symbol,
          paidAt: transfer.created_at,
        }
      : null;
  return { merchantName: merchant?.name ?? null, product: product ?? null, order, parts };
}

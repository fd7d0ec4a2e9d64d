/** Transfers into receiving addresses that no session took: found, recorded once, listed, and settled by the merchant. */

import type { Selectable } from 'kysely';
import { type Kysely, sql } from 'kysely';
import type { ChainTransfersTable, CheckoutSessionRow } from '../checkoutSchema.ts';
import type { StoredToken } from '../columnTypes.ts';
import type { Database } from '../schema.ts';
import { statusesMovingTo, unmatchedTransferTransitions } from '../transitions.ts';
import type {
  UnmatchedTransferKind,
  UnmatchedTransferRow,
  UnmatchedTransferStatus,
} from '../unmatchedSchema.ts';
import { type SessionWindow, sessionEndedWithin, sessionWindowOpen } from './chainWatch.ts';
import { storedTokenNetwork } from './walletScope.ts';

/** The status machine's name in its errors. */
const machine = 'unmatched transfer';

/** A recorded transfer into a merchant's receiving address that nothing took yet. */
export type UnsettledTransfer = Selectable<ChainTransfersTable> & { merchant_id: string };

/**
 * Transfers the chain's watcher recorded into merchants' receiving addresses and sessions' deposit addresses
 * (not quotes' deposit addresses) since `since`, that no session claimed, no resolved payment is, and no
 * unmatched record holds yet.
 */
export async function listUnsettledTransfers(
  db: Kysely<Database>,
  input: { chainId: number; since: Date },
): Promise<UnsettledTransfer[]> {
  return db
    .selectFrom('chain_transfers')
    .leftJoin('merchant_addresses', (join) =>
      join.on(sql`lower(merchant_addresses.address)`, '=', sql.ref('chain_transfers.to_address')),
    )
    .leftJoin('checkout_sessions as deposit_session', (join) =>
      join
        .onRef('deposit_session.chain_id', '=', 'chain_transfers.chain_id')
        .onRef('deposit_session.deposit_address', '=', 'chain_transfers.to_address'),
    )
    .selectAll('chain_transfers')
    .select((eb) =>
      eb.fn
        .coalesce('merchant_addresses.merchant_id', 'deposit_session.merchant_id')
        .$notNull()
        .as('merchant_id'),
    )
    .where((eb) =>
      eb.or([
        eb('merchant_addresses.merchant_id', 'is not', null),
        eb('deposit_session.merchant_id', 'is not', null),
      ]),
    )
    .where('chain_transfers.chain_id', '=', input.chainId)
    .where('chain_transfers.seen_at', '>', input.since)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('checkout_transactions')
            .select('tx_hash')
            .whereRef('checkout_transactions.chain_id', '=', 'chain_transfers.chain_id')
            .whereRef('checkout_transactions.tx_hash', '=', 'chain_transfers.tx_hash'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('resolved_payments')
            .select('id')
            .whereRef('resolved_payments.chain_id', '=', 'chain_transfers.chain_id')
            .whereRef('resolved_payments.tx_id', '=', 'chain_transfers.tx_hash'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('unmatched_transfers')
            .select('id')
            .whereRef('unmatched_transfers.chain_id', '=', 'chain_transfers.chain_id')
            .whereRef('unmatched_transfers.tx_hash', '=', 'chain_transfers.tx_hash')
            .whereRef('unmatched_transfers.log_index', '=', 'chain_transfers.log_index'),
        ),
      ),
    )
    .orderBy('chain_transfers.seen_at')
    .limit(200)
    .execute();
}

/**
 * The sessions into `receivingAddress` (or whose deposit address it is) on the chain a transfer may have
 * been meant for: those still waiting
 * for a payment (their window, grace included, not over), and those that ended (paid, failed, closed) within
 * the last `graceMinutes`.
 */
export async function listSessionsAtAddress(
  db: Kysely<Database>,
  input: SessionWindow & { chainId: number; receivingAddress: string },
): Promise<CheckoutSessionRow[]> {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('chain_id', '=', input.chainId)
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['receiving_address']), '=', input.receivingAddress.toLowerCase()),
        eb('deposit_address', '=', input.receivingAddress.toLowerCase()),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', 'in', ['awaiting_payment', 'confirming', 'expired']),
          sessionWindowOpen(eb, input),
        ]),
        sessionEndedWithin(eb, input.graceMinutes),
      ]),
    )
    .orderBy('created_at', 'desc')
    .limit(500)
    .execute();
}

/** The session whose deposit address `address` is on the chain (one: deposit addresses are never reused). */
export async function findSessionByDepositAddress(
  db: Kysely<Database>,
  input: { chainId: number; address: string },
): Promise<CheckoutSessionRow | undefined> {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('chain_id', '=', input.chainId)
    .where('deposit_address', '=', input.address.toLowerCase())
    .executeTakeFirst();
}

/** A new unmatched transfer, as its recording decided it. */
export interface NewUnmatchedTransfer {
  id: string;
  merchantId: string;
  productId: string | null;
  transfer: Selectable<ChainTransfersTable>;
  token: StoredToken;
  kind: UnmatchedTransferKind;
  resolvedPaymentId: string | null;
  nearSessionIds: readonly string[];
  /** The session whose deposit address it arrived at (the transfer's `to_address`), or none. */
  depositSession?: { id: string; receivingAddress: string };
  /** Whether the merchant is e-mailed of it (in a batch); false by default. */
  mailWanted?: boolean;
}

/**
 * Records the transfer once (unique on chain, hash and log index) with the sessions it arrived near, and
 * touches the open ones among those (their event streams show it). Undefined when it was recorded already.
 */
export async function insertUnmatchedTransfer(
  db: Kysely<Database>,
  input: NewUnmatchedTransfer,
): Promise<UnmatchedTransferRow | undefined> {
  const now = new Date();
  const t = input.transfer;
  const row = await db
    .insertInto('unmatched_transfers')
    .values({
      id: input.id,
      merchant_id: input.merchantId,
      product_id: input.productId,
      chain_id: t.chain_id,
      tx_hash: t.tx_hash,
      log_index: t.log_index,
      block_number: t.block_number,
      block_hash: t.block_hash,
      token_address: t.token_address,
      token: JSON.stringify(input.token),
      amount: t.amount,
      sender_address: t.tx_from,
      // Into a deposit address: listed under the receiving address its forwarder sweeps to, where the
      // merchant's wallet sees it (and refunds it from), and the address it arrived at kept beside it.
      receiving_address: input.depositSession?.receivingAddress.toLowerCase() ?? t.to_address,
      deposit_address: input.depositSession ? t.to_address : null,
      deposit_session_id: input.depositSession?.id ?? null,
      kind: input.kind,
      status: 'open',
      resolved_payment_id: input.resolvedPaymentId,
      mail_wanted: input.mailWanted ?? false,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.constraint('unmatched_transfers_transfer_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  if (input.nearSessionIds.length > 0) {
    await db
      .insertInto('unmatched_transfer_sessions')
      .values(input.nearSessionIds.map((session_id) => ({ unmatched_transfer_id: row.id, session_id })))
      .execute();
    await db
      .updateTable('checkout_sessions')
      .set({ updated_at: now })
      .where('id', 'in', input.nearSessionIds)
      .where('status', 'in', ['awaiting_payment', 'expired'])
      .execute();
  }
  return row;
}

/** The merchant's receiving wallet, and with a test key only test networks' transfers. */
interface UnmatchedScope {
  merchantId: string;
  receivingAddress: string;
  testOnly?: boolean | undefined;
}

/** An unmatched transfer by id, within the merchant's receiving wallet. */
export async function findUnmatchedTransfer(
  db: Kysely<Database>,
  scope: UnmatchedScope,
  id: string,
): Promise<UnmatchedTransferRow | undefined> {
  return db
    .selectFrom('unmatched_transfers')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', scope.merchantId)
    .where('receiving_address', '=', scope.receivingAddress.toLowerCase())
    .$if(Boolean(scope.testOnly), (q) => q.where(storedTokenNetwork('token'), '=', 'testnet'))
    .executeTakeFirst();
}

/** An unmatched transfer by id (for workflows, which run with no merchant scope). */
export async function findUnmatchedTransferById(
  db: Kysely<Database>,
  id: string,
): Promise<UnmatchedTransferRow | undefined> {
  return db.selectFrom('unmatched_transfers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Filters of the merchant's list. */
export interface UnmatchedTransferFilter {
  productId?: string | undefined;
  status?: UnmatchedTransferStatus | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

/** The merchant's unmatched transfers into a receiving wallet, newest first (at most `limit`). */
export async function listUnmatchedTransfers(
  db: Kysely<Database>,
  scope: UnmatchedScope,
  filter: UnmatchedTransferFilter,
  limit = 500,
): Promise<UnmatchedTransferRow[]> {
  let query = db
    .selectFrom('unmatched_transfers')
    .selectAll()
    .where('merchant_id', '=', scope.merchantId)
    .where('receiving_address', '=', scope.receivingAddress.toLowerCase())
    .$if(Boolean(scope.testOnly), (q) => q.where(storedTokenNetwork('token'), '=', 'testnet'));
  if (filter.productId) query = query.where('product_id', '=', filter.productId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.since) query = query.where('created_at', '>=', filter.since);
  if (filter.until) query = query.where('created_at', '<', filter.until);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The sessions each unmatched transfer arrived near, by transfer id. */
export async function listNearSessions(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, CheckoutSessionRow[]>> {
  const near = new Map<string, CheckoutSessionRow[]>();
  if (ids.length === 0) return near;
  const rows = await db
    .selectFrom('unmatched_transfer_sessions')
    .innerJoin('checkout_sessions', 'checkout_sessions.id', 'unmatched_transfer_sessions.session_id')
    .selectAll('checkout_sessions')
    .select('unmatched_transfer_sessions.unmatched_transfer_id')
    .where('unmatched_transfer_sessions.unmatched_transfer_id', 'in', ids)
    .orderBy('checkout_sessions.created_at')
    .execute();
  for (const { unmatched_transfer_id, ...session } of rows) {
    near.set(unmatched_transfer_id, [...(near.get(unmatched_transfer_id) ?? []), session]);
  }
  return near;
}

/** The open unmatched transfers of another amount that arrived near a session (the QR page shows them). */
export async function listUnmatchedNearSession(
  db: Kysely<Database>,
  sessionId: string,
): Promise<UnmatchedTransferRow[]> {
  return db
    .selectFrom('unmatched_transfers')
    .innerJoin(
      'unmatched_transfer_sessions',
      'unmatched_transfer_sessions.unmatched_transfer_id',
      'unmatched_transfers.id',
    )
    .selectAll('unmatched_transfers')
    .where('unmatched_transfer_sessions.session_id', '=', sessionId)
    .orderBy('unmatched_transfers.created_at')
    .limit(10)
    .execute();
}

/**
 * Moves an open unmatched transfer to `status` with what the merchant decided; undefined when it is no
 * longer open (another request settled it first).
 */
export async function settleUnmatchedTransfer(
  db: Kysely<Database>,
  id: string,
  change: {
    status: Exclude<UnmatchedTransferStatus, 'open'>;
    resolvedPaymentId?: string | null;
    expectedPaymentId?: string | null;
    note?: string | null;
  },
): Promise<UnmatchedTransferRow | undefined> {
  return db
    .updateTable('unmatched_transfers')
    .set({
      status: change.status,
      ...(change.resolvedPaymentId === undefined ? {} : { resolved_payment_id: change.resolvedPaymentId }),
      ...(change.expectedPaymentId === undefined ? {} : { expected_payment_id: change.expectedPaymentId }),
      ...(change.note === undefined ? {} : { note: change.note }),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', 'in', statusesMovingTo(machine, unmatchedTransferTransitions, change.status))
    .returningAll()
    .executeTakeFirst();
}

/**
 * Gives an attached transfer back to the merchant: its claim goes back to no session and its record (or
 * records, one per log of the transaction) to open, when the checkout it was attached to could not take it.
 */
export async function reopenUnmatchedClaim(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string; sessionId: string },
): Promise<string[]> {
  const txHash = input.txHash.toLowerCase();
  await db
    .updateTable('checkout_transactions')
    .set({ session_id: null })
    .where('chain_id', '=', input.chainId)
    .where('tx_hash', '=', txHash)
    .where('session_id', '=', input.sessionId)
    .execute();
  const reopened = await db
    .updateTable('unmatched_transfers')
    .set({ status: 'open', expected_payment_id: null, updated_at: new Date() })
    .where('chain_id', '=', input.chainId)
    .where('tx_hash', '=', txHash)
    .where('status', 'in', statusesMovingTo(machine, unmatchedTransferTransitions, 'open', ['attached']))
    .where('resolved_payment_id', 'is', null)
    .returning('id')
    .execute();
  return reopened.map((r) => r.id);
}

/** The unmatched transfers of a transaction attached to an expected payment (its checkout takes them). */
export async function listAttachedOfTransaction(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string },
): Promise<string[]> {
  const query = db
    .selectFrom('unmatched_transfers')
    .select('id')
    .where('chain_id', '=', input.chainId)
    .where('tx_hash', '=', input.txHash.toLowerCase())
    .where('status', '=', 'attached')
    .where('expected_payment_id', 'is not', null);
  return (await query.execute()).map((r) => r.id);
}

/** Those of the resolved payments `ids` that a second payment duplicates, waiting open as an unmatched transfer. */
export async function listPaidTwice(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('unmatched_transfers')
    .select('resolved_payment_id')
    .distinct()
    .where('kind', '=', 'duplicate')
    .where('status', '=', 'open')
    .where('resolved_payment_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.resolved_payment_id as string));
}

/** Transaction hashes claimed by checkout sessions: one hash pays one checkout, or is recorded as unmatched. */
import type { Kysely } from 'kysely';
import { inTransaction } from '../inTransaction.ts';
import type { Database } from '../schema.ts';
import { lockSession } from './checkout.ts';

/**
 * Result of claiming a transaction hash for a session: `unmatched` when it was recorded as a transfer no
 * session took, `session_closed` when the session can take nothing any more.
 */
export type TransactionClaim =
  | 'claimed'
  | 'already_this_session'
  | 'other_session'
  | 'unmatched'
  | 'session_closed';

/**
 * Claims a transaction hash for one session: a hash can pay one checkout only. The session's row is locked
 * while it claims, so a session being closed takes nothing ({@link closeSession} holds the same lock). A
 * claim made by the API (`handedOver: false`) stays marked until its workflow took the hash
 * ({@link markTransactionHandedOver}); the hand-over's sweep hands on the ones Temporal or its workers were
 * not there to take.
 */
export async function claimTransaction(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string; sessionId: string; handedOver?: boolean },
): Promise<TransactionClaim> {
  return inTransaction(db, async (trx) => {
    const session = await lockSession(trx, input.sessionId).executeTakeFirst();
    if (!session || session.status === 'closed') return 'session_closed';
    const owner = await insertClaim(trx, { ...input, handedOver: input.handedOver ?? true });
    if (owner === 'inserted') return 'claimed';
    if (owner && owner.session_id === null) return 'unmatched';
    return owner?.session_id === input.sessionId ? 'already_this_session' : 'other_session';
  });
}

/**
 * Claims a hash for no session: its transfers are recorded as unmatched. False when a session claimed it
 * first (the caller then records nothing); true also when it was claimed so before (another transfer of the
 * same transaction).
 */
export async function claimForUnmatched(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string },
): Promise<boolean> {
  const owner = await insertClaim(db, { ...input, sessionId: null, handedOver: true });
  return owner === 'inserted' || owner?.session_id === null;
}

/** Records the claim of a hash unless it has one: `inserted`, or the claim it has (its session, null for none). */
async function insertClaim(
  db: Kysely<Database>,
  claim: { chainId: number; txHash: string; sessionId: string | null; handedOver: boolean },
): Promise<'inserted' | { session_id: string | null } | undefined> {
  const txHash = claim.txHash.toLowerCase();
  const inserted = await db
    .insertInto('checkout_transactions')
    .values({
      chain_id: claim.chainId,
      tx_hash: txHash,
      session_id: claim.sessionId,
      created_at: new Date(),
      handed_over: claim.handedOver,
    })
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash']).doNothing())
    .executeTakeFirst();
  if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return 'inserted';
  return db
    .selectFrom('checkout_transactions')
    .select('session_id')
    .where('chain_id', '=', claim.chainId)
    .where('tx_hash', '=', txHash)
    .executeTakeFirst();
}

/** Gives a hash recorded as unmatched to the session the merchant attached it to. */
export async function assignUnmatchedClaim(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string; sessionId: string },
): Promise<void> {
  await db
    .updateTable('checkout_transactions')
    .set({ session_id: input.sessionId })
    .where('chain_id', '=', input.chainId)
    .where('tx_hash', '=', input.txHash.toLowerCase())
    .where('session_id', 'is', null)
    .execute();
}

/** Notes that the session's workflow took the hash. */
export async function markTransactionHandedOver(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string },
): Promise<void> {
  await db
    .updateTable('checkout_transactions')
    .set({ handed_over: true })
    .where('chain_id', '=', input.chainId)
    .where('tx_hash', '=', input.txHash.toLowerCase())
    .where('handed_over', '=', false)
    .execute();
}

/** Gives up a session's claim on a hash (its workflow refused it: the hash does not pay that checkout). */
export async function releaseTransaction(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string; sessionId: string },
): Promise<void> {
  await db
    .deleteFrom('checkout_transactions')
    .where('chain_id', '=', input.chainId)
    .where('tx_hash', '=', input.txHash.toLowerCase())
    .where('session_id', '=', input.sessionId)
    .execute();
}

/** A hash claimed by the API that its workflow has not taken yet. */
export interface PendingHandover {
  chainId: number;
  txHash: string;
  sessionId: string;
  expectedPaymentId: string;
}

/** Claims made before `before` still waiting for their workflow, oldest first (at most `limit`). */
export async function listPendingHandovers(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<PendingHandover[]> {
  const rows = await db
    .selectFrom('checkout_transactions')
    .innerJoin('checkout_sessions', 'checkout_sessions.id', 'checkout_transactions.session_id')
    .select([
      'checkout_transactions.chain_id',
      'checkout_transactions.tx_hash',
      'checkout_transactions.session_id',
      'checkout_sessions.expected_payment_id',
    ])
    .where('checkout_transactions.handed_over', '=', false)
    .where('checkout_transactions.created_at', '<', before)
    .orderBy('checkout_transactions.created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    chainId: r.chain_id,
    txHash: r.tx_hash,
    sessionId: r.session_id as string,
    expectedPaymentId: r.expected_payment_id,
  }));
}

/** How many claims made before `before` still wait for their workflow. */
export async function countPendingHandovers(db: Kysely<Database>, before: Date): Promise<number> {
  const row = await db
    .selectFrom('checkout_transactions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('handed_over', '=', false)
    .where('created_at', '<', before)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Amounts reserved for sessions paid from another device: one session per amount, address and token. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/** Where a reserved amount is paid: chain, receiving address and token. */
export interface PaymentAmountKey {
  chainId: number;
  receivingAddress: string;
  tokenAddress: string;
}

/**
 * Reserves for `sessionId` the first of `candidates` (base units) that no other session holds at `now`:
 * one insert per try, which takes over a reservation whose time has passed and otherwise leaves the row
 * alone, so two concurrent sessions never get the same amount (the second waits on the first's row and
 * then moves on). Returns the amount reserved, or null when every candidate is held.
 */
export async function reservePaymentAmount(
  db: Kysely<Database>,
  input: PaymentAmountKey & {
    sessionId: string;
    reservedUntil: Date;
    candidates: readonly bigint[];
    now?: Date;
  },
): Promise<bigint | null> {
  if (input.candidates.length === 0) return null;
  const now = input.now ?? new Date();
  const key = {
    chain_id: input.chainId,
    receiving_address: input.receivingAddress.toLowerCase(),
    token_address: input.tokenAddress.toLowerCase(),
  };
  // The amounts held between the least and the greatest candidate: one range of the key's index rather than
  // a probe per candidate (a price's tails are a thousand of them); one that is no candidate is never tried.
  let least = input.candidates[0]!;
  let greatest = least;
  for (const amount of input.candidates) {
    if (amount < least) least = amount;
    if (amount > greatest) greatest = amount;
  }
  const held = await db
    .selectFrom('checkout_payment_amounts')
    .select('amount')
    .where((eb) => eb.and(key))
    .where(sql<boolean>`amount between ${least.toString()}::numeric and ${greatest.toString()}::numeric`)
    .where('reserved_until', '>', now)
    .where('session_id', '!=', input.sessionId)
    .execute();
  const taken = new Set(held.map((r) => BigInt(r.amount)));
  for (const amount of input.candidates) {
    if (taken.has(amount)) continue;
    const row = await db
      .insertInto('checkout_payment_amounts')
      .values({
        ...key,
        amount: amount.toString(),
        session_id: input.sessionId,
        reserved_until: input.reservedUntil,
      })
      .onConflict((oc) =>
        oc
          .columns(['chain_id', 'receiving_address', 'token_address', 'amount'])
          .doUpdateSet({ session_id: input.sessionId, reserved_until: input.reservedUntil })
          .where((eb) =>
            eb.or([
              eb('checkout_payment_amounts.reserved_until', '<=', now),
              eb('checkout_payment_amounts.session_id', '=', input.sessionId),
            ]),
          ),
      )
      .returning('amount')
      .executeTakeFirst();
    if (row) return amount;
  }
  return null;
}

/** Gives up every amount a session holds (it resolved, or another session was opened in its place). */
export async function releasePaymentAmounts(db: Kysely<Database>, sessionId: string): Promise<void> {
  await db.deleteFrom('checkout_payment_amounts').where('session_id', '=', sessionId).execute();
}

/** An amount some session holds. */
export interface PaymentAmountReservation {
  tokenAddress: string;
  amount: bigint;
  sessionId: string;
}

/** The amounts held at `now` for payments into `receivingAddress` on the chain (any token). */
export async function listPaymentAmountReservations(
  db: Kysely<Database>,
  input: { chainId: number; receivingAddress: string; now?: Date },
): Promise<PaymentAmountReservation[]> {
  const rows = await db
    .selectFrom('checkout_payment_amounts')
    .select(['token_address', 'amount', 'session_id'])
    .where('chain_id', '=', input.chainId)
    .where('receiving_address', '=', input.receivingAddress.toLowerCase())
    .where('reserved_until', '>', input.now ?? new Date())
    .execute();
  return rows.map((r) => ({
    tokenAddress: r.token_address,
    amount: BigInt(r.amount),
    sessionId: r.session_id,
  }));
}

/**
 * Gives a session still awaiting its first transaction a reserved amount (and its tail): for a session
 * opened with a payer that the shopper now pays from another device. False when the session already
 * has one, or has moved on.
 */
export async function setSessionReservedAmount(
  db: Kysely<Database>,
  input: { sessionId: string; amount: bigint; tail: bigint },
): Promise<boolean> {
  const moved = await db
    .updateTable('checkout_sessions')
    .set({
      expected_token_amount: input.amount.toString(),
      amount_tail: input.tail.toString(),
      updated_at: new Date(),
    })
    .where('id', '=', input.sessionId)
    .where('status', '=', 'awaiting_payment')
    .where('tx_hash', 'is', null)
    // None yet, or the bare price a wallet session held.
    .where((eb) => eb.or([eb('amount_tail', 'is', null), sql<boolean>`amount_tail = 0`]))
    .executeTakeFirst();
  return (moved.numUpdatedRows ?? 0n) > 0n;
}

/** Offramps (fiat payouts) of quotes: creation, reads, status moves, bounce requests and refund transfers. */
import type { Kysely } from 'kysely';
import type {
  OfframpBounceAction,
  OfframpRefundStatus,
  OfframpRow,
  OfframpStatusValue,
  OfframpsTable,
} from '../rampsSchema.ts';
import type { Database } from '../schema.ts';
import { checkTransition, offrampTransitions } from '../transitions.ts';
import { findUserRecord, listUserRecords, type UserScope } from './userRecords.ts';

/** A new offramp row. */
export type NewOfframpRow = Omit<
  OfframpsTable,
  | 'status_version'
  | 'created_at'
  | 'updated_at'
  | 'metadata'
  | 'payout_attempts'
  | 'bounce_action'
  | 'refund_status'
  | 'refund_address'
  | 'refund_amount'
  | 'refund_tx_hash'
  | 'refund_tx_serialized'
  | 'refund_tx_nonce'
> & { metadata: Record<string, unknown> | null };

/** Inserts offramps (one batch, one timestamp, kept in the given order by id position). */
export async function insertOfframps(db: Kysely<Database>, rows: NewOfframpRow[]): Promise<OfframpRow[]> {
  const inserted: OfframpRow[] = [];
  for (const row of rows) {
    const now = new Date();
    inserted.push(
      await db
        .insertInto('offramps')
        .values({ ...row, metadata: JSON.stringify(row.metadata), created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }
  return inserted;
}

/** The offramps of a quote, oldest first. */
export async function listOfframpsOfQuote(db: Kysely<Database>, quoteId: string): Promise<OfframpRow[]> {
  return db
    .selectFrom('offramps')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Every offramp of a user across quotes, oldest first. */
export const listOfframpsOfUser = (db: Kysely<Database>, scope: UserScope): Promise<OfframpRow[]> =>
  listUserRecords(db, 'offramps', scope);

/** An offramp of the account's user, or undefined. */
export const findOfframp = (
  db: Kysely<Database>,
  scope: UserScope,
  id: string,
): Promise<OfframpRow | undefined> => findUserRecord(db, 'offramps', scope, id);

/** Changes the reference of an `initiated` offramp; undefined when it has left `initiated`. */
export async function updateOfframpReference(
  db: Kysely<Database>,
  id: string,
  reference: string | null,
): Promise<OfframpRow | undefined> {
  return db
    .updateTable('offramps')
    .set({ reference, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'initiated')
    .returningAll()
    .executeTakeFirst();
}

/** What an offramp change writes besides its status and message. */
export interface OfframpChangeExtras {
  /** Clears (null) or keeps (undefined) the bounce request. */
  bounceAction?: null;
  /** The change hands the payout to the partner: one more attempt. */
  payoutAttempt?: true;
  refund?: { status: OfframpRefundStatus; address?: string; amount?: string };
}

/**
 * Moves an offramp from `from` to `to` (a move of its machine, {@link offrampTransitions}), bumping its
 * version (so every change gets its own `offramp_update`); undefined when it was no longer in `from`. `to`
 * may equal `from` for a change of message or refund only.
 */
export async function transitionOfframp(
  db: Kysely<Database>,
  id: string,
  from: OfframpStatusValue,
  to: OfframpStatusValue,
  statusMessage: string | null,
  extras: OfframpChangeExtras = {},
): Promise<OfframpRow | undefined> {
  checkTransition('offramp', offrampTransitions, from, to);
  return db
    .updateTable('offramps')
    .set((eb) => ({
      status: to,
      status_message: statusMessage,
      ...(extras.bounceAction === null ? { bounce_action: null } : {}),
      ...(extras.payoutAttempt ? { payout_attempts: eb('payout_attempts', '+', 1) } : {}),
      ...(extras.refund
        ? {
            refund_status: extras.refund.status,
            ...(extras.refund.address === undefined ? {} : { refund_address: extras.refund.address }),
            ...(extras.refund.amount === undefined ? {} : { refund_amount: extras.refund.amount }),
          }
        : {}),
      status_version: eb('status_version', '+', 1),
      updated_at: new Date(),
    }))
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records the user's request for a bounced offramp: a resend to another payment detail, or a refund to
 * an address. Only a bounced offramp without a pending request takes one; undefined otherwise.
 */
export async function requestBouncedOfframpAction(
  db: Kysely<Database>,
  id: string,
  action: { kind: 'resend'; paymentDetailId: string } | { kind: 'refund'; refundAddress: string },
): Promise<OfframpRow | undefined> {
  return db
    .updateTable('offramps')
    .set({
      bounce_action: action.kind satisfies OfframpBounceAction,
      ...(action.kind === 'resend'
        ? { payment_detail_id: action.paymentDetailId }
        : { refund_address: action.refundAddress }),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '=', 'bounced')
    .where('bounce_action', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records the signed treasury refund before it is broadcast, replacing only `previousHash` (null for the
 * first), so two attempts never both record one; false when another attempt got there first.
 */
export async function recordOfframpRefundTransfer(
  db: Kysely<Database>,
  id: string,
  previousHash: string | null,
  tx: { hash: string; serialized: string; nonce: number },
): Promise<boolean> {
  const result = await db
    .updateTable('offramps')
    .set({
      refund_tx_hash: tx.hash,
      refund_tx_serialized: tx.serialized,
      refund_tx_nonce: tx.nonce,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where((eb) =>
      previousHash === null ? eb('refund_tx_hash', 'is', null) : eb('refund_tx_hash', '=', previousHash),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** An offramp by id, unscoped (for its quote's workflow); `forUpdate` locks it for the caller's transaction. */
export async function findOfframpById(
  db: Kysely<Database>,
  id: string,
  forUpdate = false,
): Promise<OfframpRow | undefined> {
  const query = db.selectFrom('offramps').selectAll().where('id', '=', id);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

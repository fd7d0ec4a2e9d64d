/** Quotes with their HD deposit addresses: creation, execution, status and the workflow's note. */
import { type Kysely, sql } from 'kysely';
import type { QuoteRow, QuoteStatusValue, QuotesTable, StoredCryptoTransfer } from '../rampsSchema.ts';
import type { Database } from '../schema.ts';
import { checkTransition, quoteTransitions } from '../transitions.ts';
import { findUserRecord, type UserScope } from './userRecords.ts';

/** The next unused HD index for a deposit address (a sequence: never handed out twice). */
export async function nextDepositIndex(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select nextval('quote_deposit_index_seq') as n`.execute(
    db,
  );
  const n = Number(rows[0]?.n);
  if (!Number.isSafeInteger(n)) throw new Error('the deposit index sequence returned no value');
  return n;
}

/** A new quote row. */
export type NewQuoteRow = Omit<
  QuotesTable,
  | 'created_at'
  | 'updated_at'
  | 'expires_at'
  | 'crypto_transfer'
  | 'received_amount'
  | 'status'
  | 'sender_address'
  | 'deposit_scan_block'
> & { expires_at: Date };

/**
 * Inserts an open quote. Its deposit address is watched from where its chain's watcher is now: the address
 * is new, so nothing can reach it in an earlier block.
 */
export async function insertQuote(db: Kysely<Database>, row: NewQuoteRow): Promise<QuoteRow> {
  const now = new Date();
  return db
    .insertInto('quotes')
    .values((eb) => ({
      ...row,
      deposit_scan_block: eb
        .selectFrom('chain_watch')
        .select('next_block')
        .where('chain_id', '=', row.chain_id),
      status: 'open',
      crypto_transfer: JSON.stringify(null),
      created_at: now,
      updated_at: now,
    }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A quote of the account's user, or undefined. */
export const findQuote = (
  db: Kysely<Database>,
  scope: UserScope,
  id: string,
): Promise<QuoteRow | undefined> => findUserRecord(db, 'quotes', scope, id);

/** A quote by id, unscoped (for its workflow); `forUpdate` locks it for the caller's transaction. */
export async function findQuoteById(
  db: Kysely<Database>,
  id: string,
  forUpdate = false,
): Promise<QuoteRow | undefined> {
  const query = db.selectFrom('quotes').selectAll().where('id', '=', id);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/** Marks an open quote executed with its transfer; undefined when it was no longer open. */
export async function markQuoteExecuted(
  db: Kysely<Database>,
  id: string,
  transfer: StoredCryptoTransfer,
  receivedAmount: string,
  senderAddress: string | null,
): Promise<QuoteRow | undefined> {
  checkTransition('quote', quoteTransitions, 'open', 'executed');
  return db
    .updateTable('quotes')
    .set({
      status: 'executed',
      crypto_transfer: JSON.stringify(transfer),
      received_amount: receivedAmount,
      sender_address: senderAddress,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

/** Moves a quote from `from` to `to`; undefined when it was not in `from`. */
export async function setQuoteStatus(
  db: Kysely<Database>,
  id: string,
  from: QuoteStatusValue,
  to: QuoteStatusValue,
): Promise<QuoteRow | undefined> {
  checkTransition('quote', quoteTransitions, from, to);
  return db
    .updateTable('quotes')
    .set({ status: to, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Moves the block a quote's deposit address is watched from on to `block` (never back): set when it was
 * not known, and moved past what a direct read of the chain already took.
 */
export async function setQuoteDepositScanBlock(
  db: Kysely<Database>,
  id: string,
  block: bigint,
): Promise<void> {
  await db
    .updateTable('quotes')
    .set({ deposit_scan_block: block.toString() })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('deposit_scan_block', 'is', null), eb('deposit_scan_block', '<', block.toString())]),
    )
    .execute();
}

/** The id of the quote the transaction `txId` funded, or undefined: one transaction funds one quote. */
export async function findQuoteFundedBy(db: Kysely<Database>, txId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('quotes')
    .select('id')
    .where((eb) => eb(eb.ref('crypto_transfer', '->>').key('tx_id'), '=', txId.toLowerCase()))
    .executeTakeFirst();
  return row?.id;
}

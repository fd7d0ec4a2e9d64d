/** Quotes with their HD deposit addresses, and the offramps (fiat payouts) they fund. */
import { type Kysely, sql } from 'kysely';
import type {
  OfframpRow,
  OfframpStatusValue,
  OfframpsTable,
  QuoteRow,
  QuoteStatusValue,
  QuotesTable,
  StoredCryptoTransfer,
} from '../rampsSchema.ts';
import type { Database } from '../schema.ts';

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
  'created_at' | 'updated_at' | 'expires_at' | 'crypto_transfer' | 'received_amount' | 'status'
> & { expires_at: Date };

/** Inserts an open quote. */
export async function insertQuote(db: Kysely<Database>, row: NewQuoteRow): Promise<QuoteRow> {
  const now = new Date();
  return db
    .insertInto('quotes')
    .values({
      ...row,
      status: 'open',
      crypto_transfer: JSON.stringify(null),
      received_amount: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A quote of the account's user, or undefined. */
export async function findQuote(
  db: Kysely<Database>,
  scope: { merchantId: string; userId: string },
  id: string,
): Promise<QuoteRow | undefined> {
  return db
    .selectFrom('quotes')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', scope.userId)
    .where('merchant_id', '=', scope.merchantId)
    .executeTakeFirst();
}

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
): Promise<QuoteRow | undefined> {
  return db
    .updateTable('quotes')
    .set({
      status: 'executed',
      crypto_transfer: JSON.stringify(transfer),
      received_amount: receivedAmount,
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
  return db
    .updateTable('quotes')
    .set({ status: to, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/** A new offramp row. */
export type NewOfframpRow = Omit<
  OfframpsTable,
  'status_version' | 'created_at' | 'updated_at' | 'metadata'
> & {
  metadata: Record<string, unknown> | null;
};

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
export async function listOfframpsOfUser(
  db: Kysely<Database>,
  scope: { merchantId: string; userId: string },
): Promise<OfframpRow[]> {
  return db
    .selectFrom('offramps')
    .selectAll()
    .where('user_id', '=', scope.userId)
    .where('merchant_id', '=', scope.merchantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** An offramp of the account's user, or undefined. */
export async function findOfframp(
  db: Kysely<Database>,
  scope: { merchantId: string; userId: string },
  id: string,
): Promise<OfframpRow | undefined> {
  return db
    .selectFrom('offramps')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', scope.userId)
    .where('merchant_id', '=', scope.merchantId)
    .executeTakeFirst();
}

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

/** Moves an offramp to `to` when it is in one of `from`, bumping its version; undefined otherwise. */
export async function transitionOfframp(
  db: Kysely<Database>,
  id: string,
  from: readonly OfframpStatusValue[],
  to: OfframpStatusValue,
  statusMessage: string | null,
): Promise<OfframpRow | undefined> {
  return db
    .updateTable('offramps')
    .set((eb) => ({
      status: to,
      status_message: statusMessage,
      status_version: eb('status_version', '+', 1),
      updated_at: new Date(),
    }))
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

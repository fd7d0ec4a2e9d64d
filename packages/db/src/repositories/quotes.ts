/** Quotes with their HD deposit addresses, and the offramps (fiat payouts) they fund. */
import { type Kysely, sql } from 'kysely';
import type {
  OfframpBounceAction,
  OfframpRefundStatus,
  OfframpRow,
  OfframpStatusValue,
  OfframpsTable,
  QuoteRefundReason,
  QuoteRefundRow,
  QuoteRow,
  QuoteStatusValue,
  QuotesTable,
  RefundStatus,
  StoredCryptoTransfer,
} from '../rampsSchema.ts';
import type { Database } from '../schema.ts';
import { checkTransition, offrampTransitions } from '../transitions.ts';

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
  | 'workflow_state'
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
      received_amount: null,
      sender_address: null,
      workflow_state: null,
      created_at: now,
      updated_at: now,
    }))
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
  senderAddress: string | null,
): Promise<QuoteRow | undefined> {
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
  return db
    .updateTable('quotes')
    .set({ status: to, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/** Notes that the quote's workflow knows `state` (started for `open`, signalled for `executed`). */
export async function markQuoteWorkflow(
  db: Kysely<Database>,
  id: string,
  state: 'open' | 'executed',
): Promise<void> {
  await db
    .updateTable('quotes')
    .set({ workflow_state: state })
    .where('id', '=', id)
    .where('status', '=', state)
    .execute();
}

/**
 * Open and executed quotes whose workflow has not been told their status, last changed before `before`,
 * oldest first: the ones a Temporal outage may have left without their workflow.
 */
export async function listQuotesOutOfSync(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<QuoteRow[]> {
  return db
    .selectFrom('quotes')
    .selectAll()
    .where('status', 'in', ['open', 'executed'])
    .where((eb) => eb.or([eb('workflow_state', 'is', null), eb('workflow_state', '!=', eb.ref('status'))]))
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

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

/** Bounced offramps with a request their workflow has not acted on, requested before `before`, oldest first. */
export async function listPendingBounceActions(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<OfframpRow[]> {
  return db
    .selectFrom('offramps')
    .selectAll()
    .where('bounce_action', 'is not', null)
    .where('status', '=', 'bounced')
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
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
      tx_hash: null,
      tx_serialized: null,
      tx_nonce: null,
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

/**
 * Records the signed treasury refund before it is broadcast, replacing only `previousHash` (null for the
 * first), so two attempts never both record one; false when another attempt got there first.
 */
export async function recordQuoteRefundTransfer(
  db: Kysely<Database>,
  id: string,
  previousHash: string | null,
  tx: { hash: string; serialized: string; nonce: number },
): Promise<boolean> {
  const result = await db
    .updateTable('quote_refunds')
    .set({ tx_hash: tx.hash, tx_serialized: tx.serialized, tx_nonce: tx.nonce, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => (previousHash === null ? eb('tx_hash', 'is', null) : eb('tx_hash', '=', previousHash)))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

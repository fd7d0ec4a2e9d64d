/** Expected payments, checkout sessions, submitted transactions and the resolution that ends them. */
import { type Kysely, sql } from 'kysely';
import type { CheckoutSessionRow, ExpectedPaymentRow } from '../checkoutSchema.ts';
import type { Database, ResolvedPaymentsTable } from '../schema.ts';
import { type ProductWithAddress, productsWithAddress } from './products.ts';

/** Creates an expected payment. */
export async function insertExpectedPayment(
  db: Kysely<Database>,
  row: Omit<
    ExpectedPaymentRow,
    'status' | 'resolved_payment_id' | 'metadata' | 'created_at' | 'updated_at'
  > & {
    metadata: Record<string, unknown> | null;
  },
): Promise<ExpectedPaymentRow> {
  const now = new Date();
  return db
    .insertInto('expected_payments')
    .values({
      ...row,
      metadata: JSON.stringify(row.metadata),
      status: 'open',
      resolved_payment_id: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An expected payment of the merchant's wallet (through its product). */
export async function findMerchantExpectedPayment(
  db: Kysely<Database>,
  scope: { merchantId: string; addressId: string },
  id: string,
): Promise<(ExpectedPaymentRow & { slug: string }) | undefined> {
  return db
    .selectFrom('expected_payments')
    .innerJoin('products', 'products.id', 'expected_payments.product_id')
    .selectAll('expected_payments')
    .select('products.slug')
    .where('expected_payments.id', '=', id)
    .where('products.merchant_id', '=', scope.merchantId)
    .where('products.address_id', '=', scope.addressId)
    .executeTakeFirst();
}

/** An expected payment by id (public checkout: the id itself is the capability). */
export async function findExpectedPayment(
  db: Kysely<Database>,
  id: string,
): Promise<ExpectedPaymentRow | undefined> {
  return db.selectFrom('expected_payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A product by its public slug, with its wallet. */
export async function findProductBySlug(
  db: Kysely<Database>,
  slug: string,
): Promise<ProductWithAddress | undefined> {
  return productsWithAddress(db).where('products.slug', '=', slug).executeTakeFirst();
}

/** A product by id, with its wallet (for workflows, which run with no merchant scope). */
export async function findProductById(
  db: Kysely<Database>,
  id: string,
): Promise<ProductWithAddress | undefined> {
  return productsWithAddress(db).where('products.id', '=', id).executeTakeFirst();
}

/** The session of an expected payment, if one was started. */
export async function findSessionByExpectedPayment(
  db: Kysely<Database>,
  expectedPaymentId: string,
): Promise<CheckoutSessionRow | undefined> {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('expected_payment_id', '=', expectedPaymentId)
    .executeTakeFirst();
}

/** A session by id. */
export async function findSession(db: Kysely<Database>, id: string): Promise<CheckoutSessionRow | undefined> {
  return db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The channel every change of a checkout session is announced on, with the session id as payload: a
 * trigger on `checkout_sessions` sends it in the transaction of the change.
 */
export const checkoutSessionChannel = 'checkout_session_changed';

/** When each of these sessions last changed (one query, whatever the number of sessions). */
export async function findSessionVersions(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Array<{ id: string; updated_at: Date }>> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('checkout_sessions')
    .select(['id', 'updated_at'])
    .where('id', '=', sql<string>`any(${sql.val(ids)}::uuid[])`)
    .execute();
}

/** New session values, before defaults. */
export type NewCheckoutSession = Omit<
  CheckoutSessionRow,
  | 'status'
  | 'tx_hash'
  | 'confirmations'
  | 'resolved_payment_id'
  | 'late'
  | 'error'
  | 'custom_fields'
  | 'expected_token'
  | 'amount_tail'
  | 'locale'
  | 'created_at'
  | 'updated_at'
> & {
  custom_fields: Record<string, string>;
  expected_token: CheckoutSessionRow['expected_token'];
  /** Set for a session with a reserved amount (see {@link reservePaymentAmount}). */
  amount_tail?: string | null;
  /** The shopper's language tag, when the element sent it. */
  locale?: string | null;
};

/**
 * Opens the session of an expected payment, or — while it still awaits payment — updates the payer's
 * details on the existing one. Returns the row and whether it was created.
 */
export async function upsertSession(
  db: Kysely<Database>,
  session: NewCheckoutSession,
): Promise<{ session: CheckoutSessionRow; created: boolean }> {
  const now = new Date();
  const inserted = await db
    .insertInto('checkout_sessions')
    .values({
      ...session,
      custom_fields: JSON.stringify(session.custom_fields),
      expected_token: JSON.stringify(session.expected_token),
      amount_tail: session.amount_tail ?? null,
      locale: session.locale ?? null,
      status: 'awaiting_payment',
      tx_hash: null,
      resolved_payment_id: null,
      error: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('expected_payment_id').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { session: inserted, created: true };
  const existing = await db
    .updateTable('checkout_sessions')
    .set((eb) => ({
      email: session.email,
      custom_fields: JSON.stringify(session.custom_fields),
      // Re-opened without a payer (the shopper turned to another device): the known payer stays.
      sender_address: session.sender_address ?? eb.ref('sender_address'),
      payment_token_address: session.payment_token_address,
      locale: session.locale ?? eb.ref('locale'),
      updated_at: now,
    }))
    .where('expected_payment_id', '=', session.expected_payment_id)
    .where('status', '=', 'awaiting_payment')
    .where('tx_hash', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (existing) return { session: existing, created: false };
  const current = await findSessionByExpectedPayment(db, session.expected_payment_id);
  if (!current) throw new Error('checkout session vanished');
  return { session: current, created: false };
}

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
  const held = await db
    .selectFrom('checkout_payment_amounts')
    .select('amount')
    .where('chain_id', '=', key.chain_id)
    .where('receiving_address', '=', key.receiving_address)
    .where('token_address', '=', key.token_address)
    .where('amount', '=', sql<string>`any(${sql.val(input.candidates.map(String))}::numeric[])`)
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
    .where('amount_tail', 'is', null)
    .executeTakeFirst();
  return (moved.numUpdatedRows ?? 0n) > 0n;
}

/** Result of claiming a transaction hash for a session. */
export type TransactionClaim = 'claimed' | 'already_this_session' | 'other_session';

/**
 * Claims a transaction hash for one session: a hash can pay one checkout only. A claim made by the API
 * (`handedOver: false`) stays marked until its workflow took the hash ({@link markTransactionHandedOver});
 * the reconciler hands on the ones Temporal or its workers were not there to take.
 */
export async function claimTransaction(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string; sessionId: string; handedOver?: boolean },
): Promise<TransactionClaim> {
  const txHash = input.txHash.toLowerCase();
  const inserted = await db
    .insertInto('checkout_transactions')
    .values({
      chain_id: input.chainId,
      tx_hash: txHash,
      session_id: input.sessionId,
      created_at: new Date(),
      handed_over: input.handedOver ?? true,
    })
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash']).doNothing())
    .executeTakeFirst();
  if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return 'claimed';
  const owner = await db
    .selectFrom('checkout_transactions')
    .select('session_id')
    .where('chain_id', '=', input.chainId)
    .where('tx_hash', '=', txHash)
    .executeTakeFirst();
  return owner?.session_id === input.sessionId ? 'already_this_session' : 'other_session';
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
    sessionId: r.session_id,
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

/**
 * The other sessions still awaiting a payment from `senderAddress` into `receivingAddress` on the chain:
 * a scan never takes a transfer that exactly pays one of them.
 */
export async function listOtherOpenSessionsOfPayer(
  db: Kysely<Database>,
  input: { chainId: number; receivingAddress: string; senderAddress: string; exceptSessionId: string },
): Promise<Pick<CheckoutSessionRow, 'id' | 'expected_token' | 'expected_token_amount'>[]> {
  return db
    .selectFrom('checkout_sessions')
    .select(['id', 'expected_token', 'expected_token_amount'])
    .where('chain_id', '=', input.chainId)
    .where((eb) => eb(eb.fn('lower', ['receiving_address']), '=', input.receivingAddress.toLowerCase()))
    .where((eb) => eb(eb.fn('lower', ['sender_address']), '=', input.senderAddress.toLowerCase()))
    .where('status', 'in', ['awaiting_payment', 'expired'])
    .where('resolved_payment_id', 'is', null)
    .where('id', '!=', input.exceptSessionId)
    .execute();
}

/**
 * When a scan first saw the transfer of `txHash`: recorded the first time, read back every time after,
 * so the claim delay runs from the first sighting across worker restarts.
 */
export async function sightTransfer(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string },
): Promise<Date> {
  const row = await db
    .insertInto('checkout_transfer_sightings')
    .values({ chain_id: input.chainId, tx_hash: input.txHash.toLowerCase(), first_seen_at: new Date() })
    .onConflict((oc) =>
      oc
        .columns(['chain_id', 'tx_hash'])
        .doUpdateSet((eb) => ({ first_seen_at: eb.ref('checkout_transfer_sightings.first_seen_at') })),
    )
    .returning('first_seen_at')
    .executeTakeFirstOrThrow();
  return row.first_seen_at;
}

/**
 * Shows a hash recorded for a session whose workflow has not taken it yet: the session (still awaiting
 * payment) and its expected payment move to `confirming` with the hash; the workflow's own updates follow.
 */
export async function markSessionHashPending(
  db: Kysely<Database>,
  id: string,
  txHash: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('checkout_sessions')
      .set({ status: 'confirming', tx_hash: txHash.toLowerCase(), error: null, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'awaiting_payment')
      .executeTakeFirst();
    if ((moved.numUpdatedRows ?? 0n) === 0n) return;
    await trx
      .updateTable('expected_payments')
      .set({ status: 'confirming', updated_at: new Date() })
      .where(
        'id',
        '=',
        trx.selectFrom('checkout_sessions').select('expected_payment_id').where('id', '=', id),
      )
      .where('status', '=', 'open')
      .execute();
  });
}

/** Updates the progress fields of a session. */
export async function updateSession(
  db: Kysely<Database>,
  id: string,
  patch: Partial<Pick<CheckoutSessionRow, 'status' | 'tx_hash' | 'confirmations' | 'late' | 'error'>>,
): Promise<void> {
  await db
    .updateTable('checkout_sessions')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
  // The expected payment follows: a refused transaction puts a confirming one back to open.
  const mirrored =
    patch.status === 'awaiting_payment'
      ? { status: 'open' as const, from: ['confirming' as const] }
      : patch.status === 'confirming' || patch.status === 'expired'
        ? { status: patch.status, from: ['open' as const, 'confirming' as const, 'expired' as const] }
        : null;
  if (mirrored) {
    await db
      .updateTable('expected_payments')
      .set({ status: mirrored.status, updated_at: new Date() })
      .where('id', '=', db.selectFrom('checkout_sessions').select('expected_payment_id').where('id', '=', id))
      .where('status', 'in', mirrored.from)
      .execute();
  }
}

/** A resolved payment to record, as the resolution computed it. */
export type NewResolvedPayment = Omit<
  import('kysely').Insertable<ResolvedPaymentsTable>,
  'created_at' | 'metadata' | 'custom_fields' | 'expected_token' | 'received_token'
> & {
  metadata: Record<string, unknown> | null;
  custom_fields: Record<string, string>;
  expected_token: CheckoutSessionRow['expected_token'];
  received_token: CheckoutSessionRow['expected_token'];
};

/**
 * Records the resolved payment of a session exactly once (unique on chain, tx hash and log index)
 * and closes the session and its expected payment, in one transaction. `onRecorded` runs inside
 * that transaction, for writes that must commit with it (such as the webhook delivery).
 */
export async function recordResolvedPayment(
  db: Kysely<Database>,
  input: { sessionId: string; payment: NewResolvedPayment; late: boolean },
  onRecorded?: (trx: Kysely<Database>, resolvedPaymentId: string, created: boolean) => Promise<void>,
): Promise<{ resolvedPaymentId: string; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const { payment } = input;
    const inserted = await trx
      .insertInto('resolved_payments')
      .values({
        ...payment,
        metadata: JSON.stringify(payment.metadata),
        custom_fields: JSON.stringify(payment.custom_fields),
        expected_token: JSON.stringify(payment.expected_token),
        received_token: JSON.stringify(payment.received_token),
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['chain_id', 'tx_id', 'log_index']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const existing = inserted
      ? undefined
      : await trx
          .selectFrom('resolved_payments')
          .select('id')
          .where('chain_id', '=', payment.chain_id)
          .where('tx_id', '=', payment.tx_id)
          .where('log_index', '=', payment.log_index)
          .executeTakeFirstOrThrow();
    const resolvedPaymentId = inserted?.id ?? existing!.id;
    const status = payment.tx_failure ? 'failed' : 'resolved';
    await trx
      .updateTable('checkout_sessions')
      .set({
        status,
        resolved_payment_id: resolvedPaymentId,
        tx_hash: payment.tx_id,
        late: input.late,
        error: null,
        updated_at: now,
      })
      .where('id', '=', input.sessionId)
      .execute();
    await trx
      .updateTable('expected_payments')
      .set({
        status: payment.tx_failure ? 'failed' : 'paid',
        resolved_payment_id: resolvedPaymentId,
        updated_at: now,
      })
      .where('id', '=', payment.expected_payment_id)
      .execute();
    // The session is closed: its reserved amount is free for another.
    await trx.deleteFrom('checkout_payment_amounts').where('session_id', '=', input.sessionId).execute();
    if (onRecorded) await onRecorded(trx, resolvedPaymentId, Boolean(inserted));
    return { resolvedPaymentId, created: Boolean(inserted) };
  });
}

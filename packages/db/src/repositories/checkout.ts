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
  | 'created_at'
  | 'updated_at'
> & { custom_fields: Record<string, string>; expected_token: CheckoutSessionRow['expected_token'] };

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
    .set({
      email: session.email,
      custom_fields: JSON.stringify(session.custom_fields),
      sender_address: session.sender_address,
      payment_token_address: session.payment_token_address,
      updated_at: now,
    })
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

/** Result of claiming a transaction hash for a session. */
export type TransactionClaim = 'claimed' | 'already_this_session' | 'other_session';

/** Claims a transaction hash for one session: a hash can pay one checkout only. */
export async function claimTransaction(
  db: Kysely<Database>,
  input: { chainId: number; txHash: string; sessionId: string },
): Promise<TransactionClaim> {
  const txHash = input.txHash.toLowerCase();
  const inserted = await db
    .insertInto('checkout_transactions')
    .values({ chain_id: input.chainId, tx_hash: txHash, session_id: input.sessionId, created_at: new Date() })
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
  if (patch.status === 'confirming' || patch.status === 'expired') {
    await db
      .updateTable('expected_payments')
      .set({ status: patch.status, updated_at: new Date() })
      .where('id', '=', db.selectFrom('checkout_sessions').select('expected_payment_id').where('id', '=', id))
      .where('status', 'in', ['open', 'confirming', 'expired'])
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
    if (onRecorded) await onRecorded(trx, resolvedPaymentId, Boolean(inserted));
    return { resolvedPaymentId, created: Boolean(inserted) };
  });
}

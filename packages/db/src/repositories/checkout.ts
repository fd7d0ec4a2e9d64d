/** Expected payments and checkout sessions. */
import { type Kysely, sql } from 'kysely';
import type { CheckoutSessionRow, ExpectedPaymentRow } from '../checkoutSchema.ts';
import { inTransaction } from '../inTransaction.ts';
import type { Database } from '../schema.ts';
import { checkoutSessionTransitions, expectedPaymentTransitions, statusesBefore } from '../transitions.ts';
import { type ProductWithAddress, productsWithAddress } from './products.ts';
import type { WalletScope } from './walletScope.ts';

/** Creates an expected payment. */
export async function insertExpectedPayment(
  db: Kysely<Database>,
  row: Omit<
    ExpectedPaymentRow,
    'status' | 'resolved_payment_id' | 'metadata' | 'created_at' | 'updated_at'
  > & { metadata: Record<string, unknown> | null },
): Promise<ExpectedPaymentRow> {
  const now = new Date();
  return db
    .insertInto('expected_payments')
    .values({
      ...row,
      metadata: JSON.stringify(row.metadata),
      status: 'open',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An expected payment of the merchant's wallet (through its product). */
export async function findMerchantExpectedPayment(
  db: Kysely<Database>,
  scope: WalletScope,
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
    .$if(Boolean(scope.testOnly), (q) => q.where('products.token_network', '=', 'testnet'))
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

/** The status of a session, its row locked until the transaction ends (a claim and a close take this lock). */
export const lockSession = (db: Kysely<Database>, id: string) =>
  db.selectFrom('checkout_sessions').select('status').where('id', '=', id).forUpdate();

/** A session by id. */
export async function findSession(db: Kysely<Database>, id: string): Promise<CheckoutSessionRow | undefined> {
  return db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A session of the wallet's products, by id. */
export async function findMerchantSession(
  db: Kysely<Database>,
  scope: WalletScope,
  id: string,
): Promise<CheckoutSessionRow | undefined> {
  return db
    .selectFrom('checkout_sessions')
    .innerJoin('products', 'products.id', 'checkout_sessions.product_id')
    .selectAll('checkout_sessions')
    .where('checkout_sessions.id', '=', id)
    .where('products.merchant_id', '=', scope.merchantId)
    .where('products.address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where('products.token_network', '=', 'testnet'))
    .executeTakeFirst();
}

/** Moves a session's expiry to `at` (the sandbox's "expire now"; its workflow expires it). */
export async function moveSessionExpiry(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db
    .updateTable('checkout_sessions')
    .set({ expires_at: at, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
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
  | 'deposit_address'
  | 'locale'
  | 'created_at'
  | 'updated_at'
> & {
  custom_fields: Record<string, string>;
  expected_token: CheckoutSessionRow['expected_token'];
  /** Set for a session with a reserved amount (see {@link reservePaymentAmount}). */
  amount_tail?: string | null;
  /** Set for a session paid from another device on a chain in `deposit_address` mode (lowercase). */
  deposit_address?: string | null;
  /** The shopper's language tag, when the element sent it. */
  locale?: string | null;
};

/**
 * Opens the session of an expected payment, or — while it still awaits payment — updates the shopper's
 * details on the existing one, but only for its opener: `openerSecretHash` must be the hash stored when it
 * was opened. Anyone else gets the session as it is. Returns the row, whether it was created, and whether
 * the caller is its opener.
 */
export async function upsertSession(
  db: Kysely<Database>,
  session: NewCheckoutSession,
  openerSecretHash: string | null,
): Promise<{ session: CheckoutSessionRow; created: boolean; opener: boolean }> {
  const now = new Date();
  const inserted = await db
    .insertInto('checkout_sessions')
    .values({
      ...session,
      custom_fields: JSON.stringify(session.custom_fields),
      expected_token: JSON.stringify(session.expected_token),
      amount_tail: session.amount_tail ?? null,
      deposit_address: session.deposit_address ?? null,
      locale: session.locale ?? null,
      status: 'awaiting_payment',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('expected_payment_id').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { session: inserted, created: true, opener: true };
  const existing =
    openerSecretHash === null
      ? undefined
      : await db
          .updateTable('checkout_sessions')
          .set((eb) => ({
            email: session.email,
            custom_fields: JSON.stringify(session.custom_fields),
            // Re-opened without a payer, the shopper turned to another device: the session shows its payment
            // request (the declared wallet never attributed anything).
            sender_address: session.sender_address ?? null,
            // An address once given stays the session's: a payment may already be on its way to it.
            deposit_address: eb.fn.coalesce('deposit_address', eb.val(session.deposit_address ?? null)),
            payment_token_address: session.payment_token_address,
            locale: session.locale ?? eb.ref('locale'),
            updated_at: now,
          }))
          .where('expected_payment_id', '=', session.expected_payment_id)
          .where('client_secret_hash', '=', openerSecretHash)
          .where('status', '=', 'awaiting_payment')
          .where('tx_hash', 'is', null)
          .returningAll()
          .executeTakeFirst();
  if (existing) return { session: existing, created: false, opener: true };
  const current = await findSessionByExpectedPayment(db, session.expected_payment_id);
  if (!current) throw new Error('checkout session vanished');
  const opener = openerSecretHash !== null && current.client_secret_hash === openerSecretHash;
  return { session: current, created: false, opener };
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

/**
 * Updates the progress fields of a session. A status moves only from a status its machine allows
 * (`checkoutSessionTransitions`): a write that lost a race to another move (a close, a payment) changes
 * nothing. The expected payment follows its session the same way (`expectedPaymentTransitions`).
 */
export async function updateSession(
  db: Kysely<Database>,
  id: string,
  patch: Partial<Pick<CheckoutSessionRow, 'status' | 'tx_hash' | 'confirmations' | 'late' | 'error'>>,
): Promise<void> {
  let query = db
    .updateTable('checkout_sessions')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id);
  if (patch.status)
    query = query.where('status', 'in', statusesBefore(checkoutSessionTransitions, patch.status));
  const moved = await query.executeTakeFirst();
  const follows: Partial<Record<CheckoutSessionRow['status'], ExpectedPaymentRow['status']>> = {
    awaiting_payment: 'open',
    confirming: 'confirming',
    expired: 'expired',
  };
  const status = patch.status ? follows[patch.status] : undefined;
  if (!status || (moved.numUpdatedRows ?? 0n) === 0n) return;
  await db
    .updateTable('expected_payments')
    .set({ status, updated_at: new Date() })
    .where('id', '=', db.selectFrom('checkout_sessions').select('expected_payment_id').where('id', '=', id))
    .where('status', 'in', statusesBefore(expectedPaymentTransitions, status))
    .execute();
}

/**
 * Closes a session that still awaits its payment and has no transaction claimed: it takes nothing any more.
 * Its expected payment is closed with it when the shopper made it (a merchant's stays payable), and its
 * reserved amount is given back. The row is locked as a claim locks it (`claimTransaction`), so a claim and
 * a close never both win. The closed session, or undefined when it could not be closed.
 */
export async function closeSession(
  db: Kysely<Database>,
  sessionId: string,
): Promise<CheckoutSessionRow | undefined> {
  return inTransaction(db, async (trx) => {
    const now = new Date();
    if (!(await lockSession(trx, sessionId).executeTakeFirst())) return undefined;
    const closed = await trx
      .updateTable('checkout_sessions')
      .set({ status: 'closed', error: null, updated_at: now })
      .where('id', '=', sessionId)
      .where('status', 'in', ['awaiting_payment', 'expired'])
      .where('tx_hash', 'is', null)
      .where('resolved_payment_id', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('checkout_transactions').select('tx_hash').where('session_id', '=', sessionId),
          ),
        ),
      )
      .returningAll()
      .executeTakeFirst();
    if (!closed) return undefined;
    await trx
      .updateTable('expected_payments')
      .set({ status: 'closed', updated_at: now })
      .where('id', '=', closed.expected_payment_id)
      .where('source', '=', 'shopper')
      .where('status', 'in', ['open', 'expired'])
      .execute();
    await trx.deleteFrom('checkout_payment_amounts').where('session_id', '=', sessionId).execute();
    return closed;
  });
}

/**
 * The sessions of the chain paying `receivingAddress` whose reference is one of `references` (the 32-byte
 * windows of a transaction's input): the sessions that transaction names.
 */
export async function listSessionsByReferences(
  db: Kysely<Database>,
  input: { chainId: number; receivingAddress: string; references: readonly string[] },
): Promise<CheckoutSessionRow[]> {
  if (input.references.length === 0) return [];
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('reference', '=', sql<string>`any(${sql.val([...input.references])}::text[])`)
    .where('chain_id', '=', input.chainId)
    .where((eb) => eb(eb.fn('lower', ['receiving_address']), '=', input.receivingAddress.toLowerCase()))
    .execute();
}

/**
 * Refunds: the merchant's wallet pays them; the service keeps what is asked, where it goes and whether the
 * chain shows it paid. One row per refund of a resolved payment or of an unmatched transfer. The customer's
 * e-mail and the page tokens are sealed; the tokens' SHA-256 finds a refund from its page. A transfer is
 * recognised as a refund's payment once (unique on chain, hash and log index). `resolved_payments` keeps
 * how much of what it received confirmed refunds gave back.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull())
    .addColumn('address_id', 'uuid', (c) => c.notNull())
    .addColumn('product_id', 'uuid')
    .addColumn('resolved_payment_id', 'uuid')
    .addColumn('unmatched_transfer_id', 'uuid')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('token', 'jsonb', (c) => c.notNull())
    .addColumn('token_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(78, 0)', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status in ('awaiting_address', 'ready_to_pay', 'sent', 'confirmed', 'canceled', 'expired')`,
        ),
    )
    .addColumn('refund_address', 'text')
    .addColumn('address_source', 'text', (c) => c.check(sql`address_source in ('merchant', 'customer')`))
    .addColumn('email_ciphertext', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('claim_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('pay_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('tokens_ciphertext', 'text', (c) => c.notNull())
    .addColumn('claim_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('log_index', 'integer')
    .addColumn('block_number', 'numeric(20, 0)')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'refunds_subject_check',
      sql`(resolved_payment_id is null) <> (unmatched_transfer_id is null)`,
    )
    .execute();
  await sql`create unique index refunds_transfer_key on refunds (chain_id, tx_hash, log_index)
    where tx_hash is not null`.execute(db);
  await sql`create index refunds_merchant_idx on refunds (merchant_id, created_at)`.execute(db);
  await sql`create index refunds_resolved_payment_idx on refunds (resolved_payment_id)
    where resolved_payment_id is not null`.execute(db);
  await sql`create index refunds_unmatched_idx on refunds (unmatched_transfer_id)
    where unmatched_transfer_id is not null`.execute(db);
  await sql`create index refunds_waiting_idx on refunds (chain_id, status)
    where status in ('ready_to_pay', 'sent')`.execute(db);
  await db.schema
    .alterTable('resolved_payments')
    .addColumn('refunded_amount', 'numeric(78, 0)', (c) => c.notNull().defaultTo('0'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('resolved_payments').dropColumn('refunded_amount').execute();
  await db.schema.dropTable('refunds').execute();
}

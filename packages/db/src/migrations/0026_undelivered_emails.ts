/**
 * E-mails given up with their outcome unknown (the SMTP server took the message twice without a final
 * answer): kept with the sealed message, so the merchant and ops see that it may not have arrived and
 * can have it sent again.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('undelivered_emails')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('effect_key', 'text', (c) => c.notNull().unique())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull())
    .addColumn('address_id', 'uuid', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull().check(sql`recipient in ('customer', 'merchant')`))
    .addColumn('resolved_payment_id', 'uuid')
    .addColumn('refund_id', 'uuid')
    .addColumn('unmatched_transfer_id', 'uuid')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message_ciphertext', 'text', (c) => c.notNull())
    .addColumn('given_up_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('resend_requested_at', 'timestamptz')
    .addColumn('resent_at', 'timestamptz')
    .addColumn('last_resend_outcome', 'text', (c) =>
      c.check(sql`last_resend_outcome in ('sent', 'outcome_unknown')`),
    )
    .execute();
  await db.schema
    .createIndex('undelivered_emails_wallet_idx')
    .on('undelivered_emails')
    .columns(['merchant_id', 'address_id', 'given_up_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('undelivered_emails').execute();
}

/**
 * The merchant's e-mails about unmatched transfers are grouped: a transfer announced by e-mail waits for its
 * batch (`mail_wanted`), and joins the next one to its recipient (`mail_batch`, the batch's claim key), at most
 * one a recipient per interval (`unmatched_mail_groups.last_batch_at`).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('unmatched_transfers')
    .addColumn('mail_wanted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('mail_batch', 'text')
    .execute();
  await sql`create index unmatched_transfers_mail_idx on unmatched_transfers (merchant_id)
    where mail_wanted and mail_batch is null`.execute(db);
  await sql`create index unmatched_transfers_batch_idx on unmatched_transfers (mail_batch)
    where mail_batch is not null`.execute(db);
  await db.schema
    .createTable('unmatched_mail_groups')
    .addColumn('merchant_id', 'uuid', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('last_batch_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('unmatched_mail_groups_pkey', ['merchant_id', 'recipient'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('unmatched_mail_groups').execute();
  await db.schema
    .alterTable('unmatched_transfers')
    .dropColumn('mail_batch')
    .dropColumn('mail_wanted')
    .execute();
}

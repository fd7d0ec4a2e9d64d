/**
 * Sessions opened without a payer (paid from another device through a QR code): the payer's address may
 * be unknown, the session's amount carries a small tail that makes it unique, and that amount is reserved
 * in `checkout_payment_amounts` — one row per (chain, receiving address, token, amount) — for as long as a
 * transfer of it may still be claimed.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table checkout_sessions alter column sender_address drop not null`.execute(db);
  await db.schema.alterTable('checkout_sessions').addColumn('amount_tail', 'numeric(78, 0)').execute();
  await db.schema
    .createTable('checkout_payment_amounts')
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('receiving_address', 'text', (c) => c.notNull())
    .addColumn('token_address', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(78, 0)', (c) => c.notNull())
    .addColumn('session_id', 'uuid', (c) => c.notNull())
    .addColumn('reserved_until', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('checkout_payment_amounts_pkey', [
      'chain_id',
      'receiving_address',
      'token_address',
      'amount',
    ])
    .execute();
  await db.schema
    .createIndex('checkout_payment_amounts_session_idx')
    .on('checkout_payment_amounts')
    .column('session_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('checkout_payment_amounts').execute();
  await db.schema.alterTable('checkout_sessions').dropColumn('amount_tail').execute();
  await sql`update checkout_sessions set sender_address = '' where sender_address is null`.execute(db);
  await sql`alter table checkout_sessions alter column sender_address set not null`.execute(db);
}

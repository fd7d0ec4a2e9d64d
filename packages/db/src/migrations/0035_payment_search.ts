/**
 * The console's payments list reads a wallet's resolved payments newest first a page at a time, and finds one
 * by its transaction hash or the shopper's e-mail: an index for each.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index resolved_payments_created_idx on resolved_payments (created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index resolved_payments_tx_idx on resolved_payments (tx_id)`.execute(db);
  await sql`create index resolved_payments_email_idx on resolved_payments (lower(user_email))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index resolved_payments_email_idx`.execute(db);
  await sql`drop index resolved_payments_tx_idx`.execute(db);
  await sql`drop index resolved_payments_created_idx`.execute(db);
}

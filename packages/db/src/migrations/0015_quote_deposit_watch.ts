/**
 * The chain watchers follow quotes' deposit addresses too: a transfer they record is matched to its quote
 * by address, case aside. The watcher lists the quotes it still watches by chain on every pass: those
 * open or paying out (found by quotes_workflow_sync_idx), and those whose expiry or last change is recent (the
 * index below); 0.9 ms among 200,000 quotes.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index quotes_chain_deposit_address_idx on quotes (chain_id, lower(deposit_address))`.execute(
    db,
  );
  await sql`create index quotes_chain_last_change_idx on quotes (chain_id, (greatest(expires_at, updated_at)))`.execute(
    db,
  );
}

/**
 * The chain watchers follow quotes' deposit addresses too: a transfer they record is matched to its quote
 * by address, case aside.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index quotes_chain_deposit_address_idx on quotes (chain_id, lower(deposit_address))`.execute(
    db,
  );
}

/**
 * A session paid from another device on a chain in `deposit_address` mode has an address of its own: the
 * CREATE2 address of a forwarder that can only pay the session's receiving address (lowercase; one session
 * per address on a chain). Sweeps of those addresses are claimed before they are sent: the signed
 * transaction (its hash and nonce fixed) and the sessions it sweeps, through which block; once mined, the
 * gas it cost and each session's share.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('checkout_sessions').addColumn('deposit_address', 'text').execute();
  await sql`create unique index checkout_sessions_deposit_address_idx
    on checkout_sessions (chain_id, deposit_address) where deposit_address is not null`.execute(db);
  await sql`create table deposit_sweeps (
    id uuid primary key,
    chain_id integer not null,
    status text not null check (status in ('claimed', 'mined', 'reverted', 'dropped')),
    tx_hash text not null unique,
    raw_transaction text not null,
    nonce numeric(20, 0) not null,
    broadcasts integer not null default 0,
    gas_used numeric(78, 0),
    gas_price numeric(78, 0),
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index deposit_sweeps_claimed_idx on deposit_sweeps (chain_id) where status = 'claimed'`.execute(
    db,
  );
  await sql`create table deposit_sweep_sessions (
    sweep_id uuid not null references deposit_sweeps (id),
    session_id uuid not null references checkout_sessions (id),
    through_block numeric(20, 0) not null,
    gas_spent numeric(78, 0),
    primary key (sweep_id, session_id)
  )`.execute(db);
  await sql`create index deposit_sweep_sessions_session_idx on deposit_sweep_sessions (session_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table deposit_sweep_sessions`.execute(db);
  await sql`drop table deposit_sweeps`.execute(db);
  await sql`drop index checkout_sessions_deposit_address_idx`.execute(db);
  await db.schema.alterTable('checkout_sessions').dropColumn('deposit_address').execute();
}

/**
 * One table of workflow calls (the outbox of the hand-over to Temporal): a domain step queues its start or
 * signal in its own transaction, and the dispatcher makes it after commit or sweeps it later. It replaces
 * the markers each kind kept of its own hand-over (quotes.workflow_state, onramps.workflow_started,
 * onramp_deposits.signalled).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workflow_calls')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('start', 'signal', 'signal_with_start')`),
    )
    .addColumn('workflow_type', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('call', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('taken_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  await sql`create index workflow_calls_waiting_idx on workflow_calls (created_at) where taken_at is null`.execute(
    db,
  );
  await sql`create index workflow_calls_workflow_idx on workflow_calls (workflow_id)`.execute(db);
  await sql`drop index if exists onramps_workflow_start_idx`.execute(db);
  await sql`drop index if exists onramp_deposits_unsignalled_idx`.execute(db);
  await db.schema.alterTable('quotes').dropColumn('workflow_state').execute();
  await db.schema.alterTable('onramps').dropColumn('workflow_started').execute();
  await db.schema.alterTable('onramp_deposits').dropColumn('signalled').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('onramp_deposits')
    .addColumn('signalled', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .alterTable('onramps')
    .addColumn('workflow_started', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema.alterTable('quotes').addColumn('workflow_state', 'text').execute();
  await db.schema.dropTable('workflow_calls').execute();
}

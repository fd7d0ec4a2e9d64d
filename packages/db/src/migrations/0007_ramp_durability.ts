/**
 * Ramp durability: what each quote's and onramp's workflow has been told (so the hand-over's sweep can start
 * or signal what a Temporal outage missed), the bank partner's deposit notices as an outbox, the funding
 * transfer's sender, payout attempts, and bounced offramps' resend/refund requests with their exactly-once
 * refund transfer.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('quotes')
    .addColumn('sender_address', 'text')
    .addColumn('workflow_state', 'text')
    .execute();
  // Final quotes need nothing from their workflow; open and executed ones are reconciled on the next pass.
  await sql`update quotes set workflow_state = status where status in ('expired', 'completed')`.execute(db);
  await sql`create index quotes_workflow_sync_idx on quotes (updated_at) where status in ('open', 'executed')`.execute(
    db,
  );

  await db.schema
    .alterTable('offramps')
    .addColumn('payout_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bounce_action', 'text')
    .addColumn('refund_status', 'text')
    .addColumn('refund_address', 'text')
    .addColumn('refund_amount', 'numeric')
    .addColumn('refund_tx_hash', 'text')
    .addColumn('refund_tx_serialized', 'text')
    .addColumn('refund_tx_nonce', 'integer')
    .execute();
  await db.schema
    .alterTable('offramps')
    .addCheckConstraint('offramps_bounce_action_check', sql`bounce_action in ('resend', 'refund')`)
    .execute();
  await db.schema
    .alterTable('offramps')
    .addCheckConstraint('offramps_refund_status_check', sql`refund_status in ('pending', 'sent', 'failed')`)
    .execute();
  await sql`create index offramps_bounce_action_idx on offramps (updated_at) where bounce_action is not null`.execute(
    db,
  );

  await db.schema
    .alterTable('onramps')
    .addColumn('workflow_started', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`update onramps set workflow_started = true where status in ('crypto_sent', 'failed', 'expired')`.execute(
    db,
  );
  await sql`create index onramps_workflow_start_idx on onramps (created_at) where not workflow_started`.execute(
    db,
  );

  await db.schema
    .createTable('onramp_deposits')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('onramp_id', 'uuid', (c) => c.notNull().references('onramps.id').onDelete('cascade'))
    .addColumn('amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('signalled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index onramp_deposits_unsignalled_idx on onramp_deposits (created_at) where not signalled`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('onramp_deposits').execute();
  await sql`drop index onramps_workflow_start_idx`.execute(db);
  await db.schema.alterTable('onramps').dropColumn('workflow_started').execute();
  await sql`drop index offramps_bounce_action_idx`.execute(db);
  await db.schema.alterTable('offramps').dropConstraint('offramps_bounce_action_check').execute();
  await db.schema.alterTable('offramps').dropConstraint('offramps_refund_status_check').execute();
  await db.schema
    .alterTable('offramps')
    .dropColumn('payout_attempts')
    .dropColumn('bounce_action')
    .dropColumn('refund_status')
    .dropColumn('refund_address')
    .dropColumn('refund_amount')
    .dropColumn('refund_tx_hash')
    .dropColumn('refund_tx_serialized')
    .dropColumn('refund_tx_nonce')
    .execute();
  await sql`drop index quotes_workflow_sync_idx`.execute(db);
  await db.schema.alterTable('quotes').dropColumn('sender_address').dropColumn('workflow_state').execute();
}

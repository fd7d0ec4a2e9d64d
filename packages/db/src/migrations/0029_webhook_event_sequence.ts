/**
 * Every webhook event carries a sequence that increases per subject record (the part of `subject_id` before
 * its first `:`), so a receiver can drop an event that arrives after a newer one about the same record.
 * A redelivery keeps its event's sequence. Deliveries recorded before are numbered in the order they were made.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('sequence_subject', 'text')
    .addColumn('event_sequence', 'integer')
    .execute();
  await sql`
    update webhook_deliveries d set sequence_subject = split_part(d.subject_id, ':', 1),
      event_sequence = n.sequence
    from (
      select id, row_number() over (
        partition by split_part(subject_id, ':', 1) order by created_at, id
      ) as sequence
      from webhook_deliveries where redelivery_of is null
    ) n
    where n.id = d.id`.execute(db);
  await sql`
    update webhook_deliveries d set sequence_subject = o.sequence_subject, event_sequence = o.event_sequence
    from webhook_deliveries o
    where d.redelivery_of = o.id`.execute(db);
  await sql`alter table webhook_deliveries alter column sequence_subject set not null`.execute(db);
  await sql`alter table webhook_deliveries alter column event_sequence set not null`.execute(db);
  await db.schema
    .createIndex('webhook_deliveries_event_sequence')
    .on('webhook_deliveries')
    .columns(['sequence_subject', 'event_sequence'])
    .unique()
    .where(sql.ref('redelivery_of'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_event_sequence').execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .dropColumn('event_sequence')
    .dropColumn('sequence_subject')
    .execute();
}

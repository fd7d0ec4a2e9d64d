/**
 * Every change of a checkout session is announced on the `checkout_session_changed` channel (payload: the
 * session id) by a trigger, so the NOTIFY commits with the change whichever code makes it; and the public
 * API's rate limit counts requests per client and minute in a table every API process shares (unlogged:
 * counters of the current minute are not worth a WAL write, and a crash only forgets them).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function checkout_session_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('checkout_session_changed', new.id::text);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger checkout_session_changed after update on checkout_sessions
    for each row execute function checkout_session_changed()`.execute(db);
  await sql`
    create unlogged table public_rate_limits (
      client text not null,
      window_start timestamptz not null,
      count integer not null,
      primary key (client, window_start)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table public_rate_limits`.execute(db);
  await sql`drop trigger checkout_session_changed on checkout_sessions`.execute(db);
  await sql`drop function checkout_session_changed()`.execute(db);
}

/**
 * What authenticates a request is announced when it changes, so that every API process may keep what it
 * verified and drop it the moment it stops being true. A trigger on `api_keys` (revoked, expired, scopes or
 * mode changed, deleted) and one on `merchant_addresses` (a wallet's products changed, its verification, its
 * removal) send the merchant's id on `api_access_changed`, committed with the change whichever code makes it.
 * They fire on update and delete only: a new key or wallet changes nothing anyone verified. A key's
 * `last_used_at` is not part of it: noting a use announces nothing.
 */
import { type Kysely, sql } from 'kysely';

/** What a change of an authenticating row sends: its merchant (the old row's: on delete there is no new one). */
const notify = `create function api_access_changed() returns trigger language plpgsql as $$
  begin
    perform pg_notify('api_access_changed', old.merchant_id::text);
    return null;
  end $$`;

/** Columns of a key that decide what it authenticates; `last_used_at` is not one. */
const keyColumns = ['revoked_at', 'expires_at', 'scopes', 'mode', 'key_hash', 'merchant_id'];

/** Each trigger: its table, the events it follows and the rows it lets through. */
const triggers = [
  {
    name: 'api_keys_access_changed',
    table: 'api_keys',
    on: `update on api_keys for each row when (${keyColumns
      .map((c) => `old.${c} is distinct from new.${c}`)
      .join(' or ')})`,
  },
  { name: 'api_keys_access_removed', table: 'api_keys', on: 'delete on api_keys for each row' },
  {
    name: 'merchant_addresses_access_changed',
    table: 'merchant_addresses',
    on: 'update or delete on merchant_addresses for each row',
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(notify).execute(db);
  for (const { name, on } of triggers) {
    await sql.raw(`create trigger ${name} after ${on} execute function api_access_changed()`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { name, table } of triggers) await sql.raw(`drop trigger ${name} on ${table}`).execute(db);
  await sql.raw('drop function api_access_changed()').execute(db);
}

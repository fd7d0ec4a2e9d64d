/**
 * What authenticates a request is announced when it changes, so that every API process may keep what it
 * verified and drop it the moment it stops being true. A trigger on `api_keys` (revoked, expired, scopes or
 * mode changed, deleted) and one on `merchant_addresses` (a wallet's products changed, its verification, its
 * removal) send the merchant's id on `api_access_changed`, committed with the change whichever code makes it.
 * They fire on update and delete only: a new key or wallet changes nothing anyone verified. A key's
 * `last_used_at` is not part of it: noting a use announces nothing.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function api_access_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('api_access_changed', old.merchant_id::text);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger api_keys_access_changed after update on api_keys
    for each row when (
      old.revoked_at is distinct from new.revoked_at
      or old.expires_at is distinct from new.expires_at
      or old.scopes is distinct from new.scopes
      or old.mode is distinct from new.mode
      or old.key_hash is distinct from new.key_hash
      or old.merchant_id is distinct from new.merchant_id
    ) execute function api_access_changed()`.execute(db);
  await sql`
    create trigger api_keys_access_removed after delete on api_keys
    for each row execute function api_access_changed()`.execute(db);
  await sql`
    create trigger merchant_addresses_access_changed after update or delete on merchant_addresses
    for each row execute function api_access_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger merchant_addresses_access_changed on merchant_addresses`.execute(db);
  await sql`drop trigger api_keys_access_removed on api_keys`.execute(db);
  await sql`drop trigger api_keys_access_changed on api_keys`.execute(db);
  await sql`drop function api_access_changed()`.execute(db);
}

/**
 * Nothing secret stays in the clear at rest: idempotency replays are stored encrypted (the repository seals
 * them), so the responses stored in the clear before are deleted — a retry of such a request within its 48 h
 * runs again instead of replaying; webhook deliveries keep no product secret (it is put back when each
 * request is signed), so it is taken out of the stored bodies; KYC sessions keep the SHA-256 of their page
 * token instead of the token. Row versions written before stay in the table files until PostgreSQL reuses
 * their space: `VACUUM FULL idempotency_keys, webhook_deliveries, kyc_sessions` once after upgrading rewrites
 * the tables without them.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from idempotency_keys where response_body is not null`.execute(db);
  // A resolved payment's body starts with fields that hold no object, so the first "product_secret" is its own.
  await sql`update webhook_deliveries
    set payload = regexp_replace(payload, '"product_secret":"[^"]*"', '"product_secret":null')
    where product_id is not null and payload like '%"product_secret":"%'`.execute(db);
  await sql`update kyc_sessions set token = encode(sha256(convert_to(token, 'UTF8')), 'hex')`.execute(db);
  await sql`alter table kyc_sessions rename column token to token_hash`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The tokens cannot be recovered from their hashes: the sessions' pages stay unreachable.
  await sql`alter table kyc_sessions rename column token_hash to token`.execute(db);
}

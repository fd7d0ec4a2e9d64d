/** A merchant's own API keys: created with scopes, listed, rolled with an overlap, revoked. */
import { randomUUID } from 'node:crypto';
import type { ApiKey, Scope } from '@checkout/core';
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyMode, ApiKeysTable, Database } from '../schema.ts';
import { generateApiKey, hashApiKey, validAt } from './merchants.ts';

type ApiKeyRow = Selectable<ApiKeysTable>;

/** A key just made: the row, and `key`, its secret, which is never stored. */
export interface IssuedApiKey {
  key: string;
  row: ApiKeyRow;
}

/** How rarely a key's `last_used_at` is written: at most once per key in this span. */
const lastUsedResolutionMs = 60_000;

/** The first characters of a key, kept to tell keys apart in listings. */
const prefixOf = (key: string, mode: ApiKeyMode) => key.slice(0, `ck_${mode}_`.length + 7);

/** Creates a key of the merchant's with a name, scopes and mode; answers its secret once. */
export async function createMerchantApiKey(
  db: Kysely<Database>,
  input: { merchantId: string; name: string | null; scopes: readonly Scope[]; mode: ApiKeyMode; now?: Date },
): Promise<IssuedApiKey> {
  const key = generateApiKey(input.mode);
  const row = await db
    .insertInto('api_keys')
    .values({
      id: randomUUID(),
      merchant_id: input.merchantId,
      key_hash: hashApiKey(key),
      prefix: prefixOf(key, input.mode),
      label: input.name,
      mode: input.mode,
      scopes: JSON.stringify([...new Set(input.scopes)]),
      created_at: input.now ?? new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { key, row };
}

/** The merchant's keys that still authenticate at `now` (those a roll ends included), newest first. */
export async function listMerchantApiKeys(
  db: Kysely<Database>,
  merchantId: string,
  now = new Date(),
): Promise<ApiKeyRow[]> {
  return validAt(db.selectFrom('api_keys').selectAll().where('merchant_id', '=', merchantId), now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * One of the merchant's keys that still authenticates at `now`, or undefined (another merchant's too); locked
 * until the caller's transaction ends, so that two rolls of one key make one new key.
 */
export async function findMerchantApiKey(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
  now = new Date(),
): Promise<ApiKeyRow | undefined> {
  return validAt(
    db.selectFrom('api_keys').selectAll().where('merchant_id', '=', merchantId).where('id', '=', id),
    now,
  )
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Rolls `old`: a new key with its name, scopes and mode, while `old` keeps working `overlapMinutes` more (an
 * end it already had that comes sooner stays). Runs in the caller's transaction.
 */
export async function rollMerchantApiKey(
  db: Kysely<Database>,
  old: ApiKeyRow,
  overlapMinutes: number,
  now = new Date(),
): Promise<{ issued: IssuedApiKey; old: ApiKeyRow }> {
  const issued = await createMerchantApiKey(db, {
    merchantId: old.merchant_id,
    name: old.label,
    scopes: old.scopes,
    mode: old.mode,
    now,
  });
  const end = new Date(now.getTime() + overlapMinutes * 60_000);
  const expiresAt = old.expires_at && old.expires_at < end ? old.expires_at : end;
  const ended = await db
    .updateTable('api_keys')
    .set({ expires_at: expiresAt })
    .where('id', '=', old.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { issued, old: ended };
}

/** Revokes one of the merchant's keys now; the revoked row, or undefined when it no longer worked. */
export async function revokeMerchantApiKey(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
  now = new Date(),
): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('merchant_id', '=', merchantId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Notes that the key authenticated a request at `now`, unless it was noted less than a minute before: one write
 * per key per minute, however busy the key. Whether it wrote.
 */
export async function noteApiKeyUse(
  db: Kysely<Database>,
  key: { apiKeyId: string; lastUsedAt: Date | null },
  now = new Date(),
): Promise<boolean> {
  const since = new Date(now.getTime() - lastUsedResolutionMs);
  if (key.lastUsedAt && key.lastUsedAt > since) return false;
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', key.apiKeyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', since)]))
    .execute();
  return true;
}

/** A key as the API lists it: never its secret. */
export function presentApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.label,
    prefix: row.prefix,
    scopes: row.scopes,
    mode: row.mode,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
  };
}

/** Merchants, their receiving wallets and API keys. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Scope } from '@checkout/core';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { getAddress } from 'viem';
import type { ApiKeyMode, Database, MerchantAddressRow } from '../schema.ts';

/** SHA-256 of an API key, hex: keys are 256-bit random secrets, so a fast hash is enough. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * A new random API key: `ck_live_` or `ck_test_` and 43 base64url characters (256 bits). Keys made before
 * modes existed (`ck_` and the characters) stay live keys.
 */
export function generateApiKey(mode: ApiKeyMode): string {
  return `ck_${mode}_${randomBytes(32).toString('base64url')}`;
}

/** What creating a key returns; `key` is shown once and never stored. */
export interface CreatedApiKey {
  key: string;
  apiKeyId: string;
  merchantId: string;
  addressId: string;
  address: string;
  mode: ApiKeyMode;
}

/**
 * Creates an API key bound to the merchant owning `address`, creating the merchant and its wallet
 * record when the address is new. `key` may be given (development seeding); else one is generated.
 */
export async function createApiKey(
  db: Kysely<Database>,
  input: { address: string; key?: string; label?: string | null; mode?: ApiKeyMode },
): Promise<CreatedApiKey> {
  const address = getAddress(input.address);
  const mode = input.mode ?? 'live';
  const key = input.key ?? generateApiKey(mode);
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    let wallet = await findWalletByAddress(trx, address);
    if (!wallet) {
      const merchantId = randomUUID();
      await trx.insertInto('merchants').values({ id: merchantId, created_at: now }).execute();
      wallet = await trx
        .insertInto('merchant_addresses')
        .values({ id: randomUUID(), merchant_id: merchantId, address, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    const apiKeyId = randomUUID();
    await trx
      .insertInto('api_keys')
      .values({
        id: apiKeyId,
        merchant_id: wallet.merchant_id,
        key_hash: hashApiKey(key),
        prefix: key.slice(0, key.startsWith(`ck_${mode}_`) ? 15 : 10),
        label: input.label ?? null,
        mode,
        created_at: now,
      })
      .execute();
    return { key, apiKeyId, merchantId: wallet.merchant_id, addressId: wallet.id, address, mode };
  });
}

/** Ensures a known key exists for `address` (idempotent development seeding). */
export async function ensureApiKey(
  db: Kysely<Database>,
  input: { address: string; key: string; mode?: ApiKeyMode },
): Promise<{ created: boolean; merchantId: string }> {
  const existing = await db
    .selectFrom('api_keys')
    .select(['merchant_id'])
    .where('key_hash', '=', hashApiKey(input.key))
    .executeTakeFirst();
  if (existing) return { created: false, merchantId: existing.merchant_id };
  const created = await createApiKey(db, {
    address: input.address,
    key: input.key,
    label: 'development',
    ...(input.mode ? { mode: input.mode } : {}),
  });
  return { created: true, merchantId: created.merchantId };
}

/**
 * The channel on which a change of what authenticates a request (a key's validity, mode or scopes; a wallet,
 * its verification or its products) is announced, with the merchant's id (migration 0037).
 */
export const apiAccessChannel = 'api_access_changed';

/** A key as authentication sees it: its merchant, id, mode, scopes, when it was last used and when it stops. */
export interface AuthenticatedKey {
  merchantId: string;
  apiKeyId: string;
  mode: ApiKeyMode;
  scopes: Scope[];
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

/** Keys that authenticate at `now`: not revoked, and not past the end a roll gave them. */
export function validAt<QB extends SelectQueryBuilder<Database, 'api_keys', object>>(qb: QB, now: Date): QB {
  return qb
    .where('api_keys.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', now)])) as QB;
}

/** The merchant of a valid key (not revoked, not expired), with the key's id, mode and scopes, or undefined. */
export async function findMerchantByApiKey(
  db: Kysely<Database>,
  key: string,
  now = new Date(),
): Promise<AuthenticatedKey | undefined> {
  const row = await validAt(
    db
      .selectFrom('api_keys')
      .select(['id', 'merchant_id', 'mode', 'scopes', 'last_used_at', 'expires_at'])
      .where('key_hash', '=', hashApiKey(key)),
    now,
  ).executeTakeFirst();
  return row
    ? {
        merchantId: row.merchant_id,
        apiKeyId: row.id,
        mode: row.mode,
        scopes: row.scopes,
        lastUsedAt: row.last_used_at,
        expiresAt: row.expires_at,
      }
    : undefined;
}

/** In one query: the wallet `address` of the merchant owning the valid key, with the key's id, mode and scopes. */
export async function findMerchantWalletByApiKey(
  db: Kysely<Database>,
  key: string,
  address: string,
  now = new Date(),
): Promise<
  | (MerchantAddressRow & {
      api_key_id: string;
      api_key_mode: ApiKeyMode;
      api_key_scopes: Scope[];
      api_key_last_used_at: Date | null;
      api_key_expires_at: Date | null;
    })
  | undefined
> {
  return validAt(
    db
      .selectFrom('api_keys')
      .innerJoin('merchant_addresses', 'merchant_addresses.merchant_id', 'api_keys.merchant_id')
      .selectAll('merchant_addresses')
      .select([
        'api_keys.id as api_key_id',
        'api_keys.mode as api_key_mode',
        'api_keys.scopes as api_key_scopes',
        'api_keys.last_used_at as api_key_last_used_at',
        'api_keys.expires_at as api_key_expires_at',
      ])
      .where('api_keys.key_hash', '=', hashApiKey(key))
      .where('merchant_addresses.address', '=', getAddress(address)),
    now,
  ).executeTakeFirst();
}

/** Keys of every merchant, newest first, without secrets. */
export async function listApiKeys(db: Kysely<Database>) {
  return db
    .selectFrom('api_keys')
    .innerJoin('merchant_addresses', 'merchant_addresses.merchant_id', 'api_keys.merchant_id')
    .select([
      'api_keys.id',
      'api_keys.prefix',
      'api_keys.label',
      'api_keys.mode',
      'api_keys.scopes',
      'api_keys.merchant_id',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'merchant_addresses.address',
    ])
    .orderBy('api_keys.created_at', 'desc')
    .execute();
}

/** Revokes a key by id; returns whether a live key was revoked. */
export const revokeApiKey = async (db: Kysely<Database>, apiKeyId: string): Promise<boolean> =>
  (await revokeValidKeys(db, 'id', apiKeyId)) > 0;

/** Revokes every live key with `label` (e.g. the key a development start printed); how many it revoked. */
export const revokeApiKeysLabelled = (db: Kysely<Database>, label: string): Promise<number> =>
  revokeValidKeys(db, 'label', label);

/** Revokes the unrevoked keys whose `column` is `value`; how many it revoked. */
async function revokeValidKeys(db: Kysely<Database>, column: 'id' | 'label', value: string): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where(column, '=', value)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The wallet record of an address (checksummed), whichever merchant holds it; undefined when none does. */
export async function findWalletByAddress(
  db: Kysely<Database>,
  address: string,
): Promise<MerchantAddressRow | undefined> {
  return db
    .selectFrom('merchant_addresses')
    .selectAll()
    .where('address', '=', getAddress(address))
    .executeTakeFirst();
}

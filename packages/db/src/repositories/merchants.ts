/** Merchants, their receiving wallets and API keys. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import type { Database, MerchantAddressRow } from '../schema.ts';

/** SHA-256 of an API key, hex: keys are 256-bit random secrets, so a fast hash is enough. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new random API key: `ck_` and 43 base64url characters (256 bits). */
export function generateApiKey(): string {
  return `ck_${randomBytes(32).toString('base64url')}`;
}

/** What creating a key returns; `key` is shown once and never stored. */
export interface CreatedApiKey {
  key: string;
  apiKeyId: string;
  merchantId: string;
  addressId: string;
  address: string;
}

/**
 * Creates an API key bound to the merchant owning `address`, creating the merchant and its wallet
 * record when the address is new. `key` may be given (development seeding); else one is generated.
 */
export async function createApiKey(
  db: Kysely<Database>,
  input: { address: string; key?: string; label?: string | null },
): Promise<CreatedApiKey> {
  const address = getAddress(input.address);
  const key = input.key ?? generateApiKey();
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
        prefix: key.slice(0, 10),
        label: input.label ?? null,
        created_at: now,
      })
      .execute();
    return { key, apiKeyId, merchantId: wallet.merchant_id, addressId: wallet.id, address };
  });
}

/** Ensures a known key exists for `address` (idempotent development seeding). */
export async function ensureApiKey(
  db: Kysely<Database>,
  input: { address: string; key: string },
): Promise<{ created: boolean; merchantId: string }> {
  const existing = await db
    .selectFrom('api_keys')
    .select(['merchant_id'])
    .where('key_hash', '=', hashApiKey(input.key))
    .executeTakeFirst();
  if (existing) return { created: false, merchantId: existing.merchant_id };
  const created = await createApiKey(db, { address: input.address, key: input.key, label: 'development' });
  return { created: true, merchantId: created.merchantId };
}

/** The merchant of a live (not revoked) key, or undefined. */
export async function findMerchantByApiKey(
  db: Kysely<Database>,
  key: string,
): Promise<{ merchantId: string; apiKeyId: string } | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'merchant_id'])
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { merchantId: row.merchant_id, apiKeyId: row.id } : undefined;
}

/** In one query: the wallet `address` of the merchant owning the live key, with the key's id. */
export async function findMerchantWalletByApiKey(
  db: Kysely<Database>,
  key: string,
  address: string,
): Promise<(MerchantAddressRow & { api_key_id: string }) | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('merchant_addresses', 'merchant_addresses.merchant_id', 'api_keys.merchant_id')
    .selectAll('merchant_addresses')
    .select('api_keys.id as api_key_id')
    .where('api_keys.key_hash', '=', hashApiKey(key))
    .where('api_keys.revoked_at', 'is', null)
    .where('merchant_addresses.address', '=', getAddress(address))
    .executeTakeFirst();
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
      'api_keys.merchant_id',
      'api_keys.created_at',
      'api_keys.revoked_at',
      'merchant_addresses.address',
    ])
    .orderBy('api_keys.created_at', 'desc')
    .execute();
}

/** Revokes a key by id; returns whether a live key was revoked. */
export const revokeApiKey = async (db: Kysely<Database>, apiKeyId: string): Promise<boolean> =>
  (await revokeLiveKeys(db, 'id', apiKeyId)) > 0;

/** Revokes every live key with `label` (e.g. the key a development start printed); how many it revoked. */
export const revokeApiKeysLabelled = (db: Kysely<Database>, label: string): Promise<number> =>
  revokeLiveKeys(db, 'label', label);

/** Revokes the live keys whose `column` is `value`; how many it revoked. */
async function revokeLiveKeys(db: Kysely<Database>, column: 'id' | 'label', value: string): Promise<number> {
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

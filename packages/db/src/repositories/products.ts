/** Products: a merchant's checkout configurations. */

import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../databaseErrorKind.ts';
import { inTransaction } from '../inTransaction.ts';
import type { Database, NewProductRow, ProductRow } from '../schema.ts';
import type { WalletScope } from './walletScope.ts';

const slugAlphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A short URL-safe code: 10 base62 characters (~59 bits). */
export function generateSlug(length = 10): string {
  let slug = '';
  for (let i = 0; i < length; i++) slug += slugAlphabet[randomInt(slugAlphabet.length)];
  return slug;
}

/** A product row joined with its wallet. */
export type ProductWithAddress = ProductRow & { address: string; verified_address: boolean };

/** Marks the wallet's product list as changed (in the caller's transaction when it has one). */
async function bumpProductsVersion(db: Kysely<Database>, addressId: string): Promise<void> {
  await db
    .updateTable('merchant_addresses')
    .set((eb) => ({ products_version: eb('products_version', '+', 1) }))
    .where('id', '=', addressId)
    .execute();
}

/** Inserts a product, drawing a fresh slug if the first one is taken. */
export async function insertProduct(
  db: Kysely<Database>,
  row: Omit<NewProductRow, 'slug'>,
): Promise<ProductRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await inTransaction(db, async (trx) => {
        const product = await trx
          .insertInto('products')
          .values({ ...row, slug: generateSlug() })
          .returningAll()
          .executeTakeFirstOrThrow();
        await bumpProductsVersion(trx, row.address_id);
        return product;
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 4) throw error;
    }
  }
}

/** Products joined with their wallet's address and verification, the base of every product read. */
export function productsWithAddress(db: Kysely<Database>) {
  return db
    .selectFrom('products')
    .innerJoin('merchant_addresses', 'merchant_addresses.id', 'products.address_id')
    .selectAll('products')
    .select(['merchant_addresses.address as address', 'merchant_addresses.verified as verified_address']);
}

/** Products of one merchant wallet, oldest first (with a test key, only test networks' products). */
export async function listProducts(
  db: Kysely<Database>,
  scope: Pick<WalletScope, 'addressId' | 'testOnly'>,
): Promise<ProductWithAddress[]> {
  return productsWithAddress(db)
    .where('products.address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where('products.token_network', '=', 'testnet'))
    .orderBy('products.created_at')
    .orderBy('products.id')
    .execute();
}

/** One product, only if it belongs to the merchant wallet. */
export async function findProduct(
  db: Kysely<Database>,
  scope: WalletScope,
  id: string,
): Promise<ProductWithAddress | undefined> {
  return productsWithAddress(db)
    .where('products.id', '=', id)
    .where('products.merchant_id', '=', scope.merchantId)
    .where('products.address_id', '=', scope.addressId)
    .$if(Boolean(scope.testOnly), (q) => q.where('products.token_network', '=', 'testnet'))
    .executeTakeFirst();
}

/** Sets `active`; returns the updated product, or undefined when it is not the merchant wallet's. */
export async function setProductActive(
  db: Kysely<Database>,
  scope: WalletScope,
  id: string,
  active: boolean,
): Promise<ProductWithAddress | undefined> {
  const updated = await inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('products')
      .set({ active, updated_at: new Date() })
      .where('id', '=', id)
      .where('merchant_id', '=', scope.merchantId)
      .where('address_id', '=', scope.addressId)
      .$if(Boolean(scope.testOnly), (q) => q.where('token_network', '=', 'testnet'))
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) await bumpProductsVersion(trx, scope.addressId);
    return result.numUpdatedRows > 0n;
  });
  if (!updated) return undefined;
  return findProduct(db, scope, id);
}

/** The slug of the wallet's product named `name`, or undefined (the first, when several are). */
export async function findProductSlugByName(
  db: Kysely<Database>,
  input: { addressId: string; name: string },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('products')
    .select('slug')
    .where('address_id', '=', input.addressId)
    .where('name', '=', input.name)
    .executeTakeFirst();
  return row?.slug;
}

/** Product rows as the wire shapes of spec 2.1. */
import { normalizeDecimal, type Product, tokenId, type UpdatedProduct } from '@checkout/core';
import type { StoredToken } from '../columnTypes.ts';
import type { ProductWithAddress } from '../repositories/products.ts';

/** The product as create and list return it (with `verified_address`). */
export function presentProduct(row: ProductWithAddress): Product {
  return {
    id: row.id,
    address_id: row.address_id,
    slug: row.slug,
    email: row.email,
    address: row.address,
    name: row.name,
    send_email: row.send_email,
    email_body: row.email_body,
    send_webhook: row.send_webhook,
    webhook_url: row.webhook_url,
    success_url: row.success_url,
    failure_url: row.failure_url,
    active: row.active,
    verified_address: row.verified_address,
    // The spec fixes a JSON number: formatted from the exact stored decimal at the edge.
    tax_rate: Number(normalizeDecimal(row.tax_rate)),
    swappable: row.swappable,
    open_amount: row.open_amount,
    tokens: [
      {
        id: tokenId({
          blockchain: row.token_blockchain,
          network: row.token_network,
          address: row.token_address,
        }),
        ...storedTokenOf(row),
      },
    ],
    custom_fields: row.custom_fields,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The product as PATCH returns it: the same without `verified_address`. */
export function presentUpdatedProduct(row: ProductWithAddress): UpdatedProduct {
  const { verified_address: _omitted, ...rest } = presentProduct(row);
  return rest;
}

/** The product's token as a session stores it (the wire Token without id). */
export function storedTokenOf(product: ProductWithAddress): StoredToken {
  return {
    symbol: product.token_symbol,
    address: product.token_address,
    name: product.token_name,
    decimal_count: product.token_decimals,
    blockchain: product.token_blockchain,
    network: product.token_network,
  };
}

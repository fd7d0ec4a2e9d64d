/** The data a benchmark needs, created through the service's own API so rows match real ones. */
import { randomBytes } from 'node:crypto';
import { createApiKey } from '@checkout/db';
import type { RunningService } from '@checkout/server';
import {
  type BenchMerchant,
  createBody,
  merchantHeaders,
  productsPath,
  type Samples,
  seededProductCount,
} from './protocol.ts';

/** What seeding leaves: a merchant with the products, one for creates, and both response bodies. */
export interface Seeded {
  listMerchant: BenchMerchant;
  createMerchant: BenchMerchant;
  samples: Samples;
}

async function call(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<string> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

/** Creates two merchants and `seededProductCount` products for the first; records one list and one create body. */
export async function seedService(service: Pick<RunningService, 'url' | 'deps'>): Promise<Seeded> {
  const newMerchant = async (): Promise<BenchMerchant> => {
    const created = await createApiKey(service.deps.db.kysely, {
      address: `0x${randomBytes(20).toString('hex')}`,
      label: 'bench',
    });
    return { key: created.key, address: created.address };
  };
  const listMerchant = await newMerchant();
  const createMerchant = await newMerchant();
  const endpoint = `${service.url}${productsPath}`;
  for (let i = 1; i <= seededProductCount; i++) {
    const product = JSON.parse(createBody) as { product: Record<string, unknown> };
    product.product.name = `Product ${String(i).padStart(3, '0')}`;
    await call(endpoint, 'POST', merchantHeaders(listMerchant), JSON.stringify(product));
  }
  const create = await call(endpoint, 'POST', merchantHeaders(createMerchant), createBody);
  const list = await call(endpoint, 'GET', merchantHeaders(listMerchant));
  const count = (JSON.parse(list) as { products: unknown[] }).products.length;
  if (count !== seededProductCount)
    throw new Error(`list returned ${count} products, not ${seededProductCount}`);
  return { listMerchant, createMerchant, samples: { list, create } };
}

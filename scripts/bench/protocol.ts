/** What the benchmark runner and its target processes agree on: the requests and the ready line. */

/** The endpoint under load (list and create share it). */
export const productsPath = '/api/v1/products';

/** Products the list merchant owns when the list endpoint is measured. */
export const seededProductCount = 100;

/** A valid create body (USDC on Ethereum mainnet); sent unchanged by every create request. */
export const createBody = JSON.stringify({
  product: {
    name: 'Bench product',
    email: 'bench@example.com',
    token: {
      blockchain: 'ethereum',
      network: 'mainnet',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    },
  },
});

/** An API key and the wallet to send as X-ADDRESS. */
export interface BenchMerchant {
  key: string;
  address: string;
}

/** Response bodies recorded from the real service, replayed by the bare Koa target. */
export interface Samples {
  list: string;
  create: string;
}

/** The one JSON line a target prints on stdout once it can take load. */
export type ReadyMessage =
  | { bench: 'ready'; target: 'bare'; url: string; port: number }
  | {
      bench: 'ready';
      target: 'service';
      url: string;
      port: number;
      database: 'pglite' | 'postgres';
      /** Owns `seededProductCount` products; used only for the list endpoint so its size stays fixed. */
      listMerchant: BenchMerchant;
      /** Receives the created products. */
      createMerchant: BenchMerchant;
      samples: Samples;
    };

/** Headers that authenticate as `merchant`. */
export function merchantHeaders(merchant: BenchMerchant): Record<string, string> {
  return { authorization: `Bearer ${merchant.key}`, 'x-address': merchant.address };
}

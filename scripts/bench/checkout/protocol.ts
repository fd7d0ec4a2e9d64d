/** What the checkout benchmark runner and its service process agree on. */

/** The one JSON line the service process prints on stdout once it takes payments. */
export interface CheckoutReady {
  bench: 'ready';
  url: string;
  database: 'pglite' | 'postgres';
  /** An API key and its receiving wallet (sent as X-ADDRESS). */
  merchant: { key: string; address: string };
}

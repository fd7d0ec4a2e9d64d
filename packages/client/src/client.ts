/**
 * A typed client for every merchant route (Area A under `/api/v1`, Area B for fiat users), built on
 * `openapi-fetch` from the service's OpenAPI document (`../openapi.json`, typed in `./generated/schema.ts`;
 * both rewritten by `npm run openapi`). Each POST carries an `Idempotency-Key` made for it and kept across
 * its retries, so a retried create never creates twice; network errors, 5xx and 429 are retried with
 * exponential backoff and jitter, honouring `Retry-After`.
 */
import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/schema.ts';

/** The one error body every failure answers with. */
export type CheckoutApiError = components['schemas']['Error'];

/**
 * The API's paths as the client takes them: the headers it sends itself (Authorization, X-ADDRESS,
 * Idempotency-Key) are not asked of each call.
 */
export type CheckoutPaths = {
  [Path in keyof paths]: {
    [Method in keyof paths[Path]]: paths[Path][Method] extends { parameters: infer Parameters }
      ? Omit<paths[Path][Method], 'parameters'> & { parameters: WithoutHeaders<Parameters> }
      : paths[Path][Method];
  };
};
type WithoutHeaders<Parameters> = Parameters extends { header?: unknown }
  ? Omit<Parameters, 'header'> & { header?: Record<string, string> }
  : Parameters;

/** How to reach the service. */
export interface CheckoutClientOptions {
  /** The service's URL, e.g. `https://pay.example.com`. */
  baseUrl: string;
  /**
   * The API key (`ck_…`), sent as `Authorization: Bearer …`. Without one the client speaks for a console
   * session: the browser sends its cookie, and every write carries `csrfToken()` as `X-CSRF-Token`.
   */
  apiKey?: string;
  /** The console session's CSRF token (from `POST /api/v1/console/session`), read at each write. */
  csrfToken?: () => string | undefined;
  /** The receiving wallet, sent as `X-ADDRESS`: Area A routes (`/api/v1/…`) need it. */
  walletAddress?: string;
  /** Attempts after the first for network errors, 5xx and 429 (default 3). */
  retries?: number;
  /** First backoff in milliseconds, doubled each retry with jitter (default 500). */
  retryBaseMs?: number;
  /** Longest wait between attempts in milliseconds, `Retry-After` included (default 30,000). */
  maxRetryDelayMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** Makes a POST's Idempotency-Key (default: a random UUID). */
  idempotencyKey?: () => string;
}

/** The client: `client.GET('/api/v1/products')`, `client.POST('/users', { body: { user } })`, … */
export type CheckoutClient = Client<CheckoutPaths>;

const retryableStatuses = new Set([429, 500, 502, 503, 504]);

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A fetch that adds an Idempotency-Key to POSTs and retries what a retry can cure. */
export function retryingFetch(options: Omit<CheckoutClientOptions, 'baseUrl' | 'apiKey' | 'walletAddress'>) {
  const base = options.fetch ?? globalThis.fetch;
  const retries = options.retries ?? 3;
  const baseMs = options.retryBaseMs ?? 500;
  const maxMs = options.maxRetryDelayMs ?? 30_000;
  const key = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
  return async (input: Request): Promise<Response> => {
    const request = input;
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', key());
    }
    const csrf = request.method === 'GET' || request.method === 'HEAD' ? undefined : options.csrfToken?.();
    if (csrf) request.headers.set('X-CSRF-Token', csrf);
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(maxMs, baseMs * 2 ** attempt) * (0.5 + Math.random() / 2);
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (error) {
        if (attempt >= retries) throw error;
        await sleep(backoff);
        continue;
      }
      if (!retryableStatuses.has(response.status) || attempt >= retries) return response;
      const asked = retryAfterMs(response.headers.get('Retry-After'));
      await response.body?.cancel();
      await sleep(Math.min(maxMs, Math.max(asked ?? 0, backoff)));
    }
  };
}

/** Builds a client for one API key (and wallet), or for the console session of this browser. */
export function createCheckoutClient(options: CheckoutClientOptions): CheckoutClient {
  return createFetchClient<CheckoutPaths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: retryingFetch(options),
    // A console session's cookie goes with requests to the service's own origin only.
    credentials: 'same-origin',
    headers: {
      ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
      ...(options.walletAddress ? { 'X-ADDRESS': options.walletAddress } : {}),
    },
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

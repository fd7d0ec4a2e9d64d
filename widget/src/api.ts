/** The public checkout API as the element calls it. */
import type { CheckoutSession, CheckoutView } from '@checkout/core';
import { readStored, store } from './crypto-checkout/state.ts';

export type { CheckoutSession, CheckoutView };

/** An error answer of the API, or a network failure (`status` 0). */
export class CheckoutApiError extends Error {
  override name = 'CheckoutApiError';
  code: string;
  status: number;
  errors: Array<{ path: string; message: string }>;
  constructor(
    code: string,
    message: string,
    status: number,
    errors: Array<{ path: string; message: string }> = [],
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.errors = errors;
  }
}

/** Body of a session creation, as the widget sends it. */
export interface SessionRequest {
  expected_payment_id?: string;
  dollar_amount?: string;
  email: string;
  custom_fields: Record<string, string>;
  /** Absent to pay from another device: the session then carries a payment request (`payment_uri`). */
  sender_address?: string;
  token_address: string;
  /** The shopper's language tag (`es-ES`): the receipt is written in it. */
  locale?: string;
}

/** Where this tab keeps the secret of a session it opened, which alone changes or closes the session. */
const secretKey = (id: string) => `crypto-checkout:secret:${id}`;
/** The secrets of this page's sessions, also when storage is disabled. */
const secrets: Record<string, string> = {};
const secretOf = (id = '') => secrets[id] || readStored(secretKey(id));

/** Calls of the public checkout API relative to one base URL. */
export class CheckoutApi {
  readonly base: string;
  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  /** The checkout view of a product, optionally for one expected payment. */
  async view(slug: string, expectedPayment?: string): Promise<CheckoutView> {
    const query = expectedPayment ? `?expected_payment=${encodeURIComponent(expectedPayment)}` : '';
    return (
      await callApi<{ checkout: CheckoutView }>(this.base, `/checkout/${encodeURIComponent(slug)}${query}`)
    ).checkout;
  }

  /**
   * Opens the session of a checkout, or updates the session `id` when this tab opened it (its secret goes
   * with the request). The secret the service gives its opener is kept; an answer without one (the
   * session of another tab, left as it was) keeps any this tab has.
   */
  async openSession(slug: string, body: SessionRequest, id?: string): Promise<CheckoutSession> {
    const { session, client_secret: secret } = await callApi<{
      session: CheckoutSession;
      client_secret: string | null;
    }>(this.base, `/checkout/${encodeURIComponent(slug)}/sessions`, body, secretOf(id));
    if (secret) {
      secrets[session.id] = secret;
      store(secretKey(session.id), secret);
    }
    return session;
  }

  /** The current state of a session. */
  session(id: string): Promise<CheckoutSession> {
    return this.sessionCall(`/checkout/sessions/${id}`);
  }

  /** Hands the payment's transaction hash to the service. */
  submitTransaction(id: string, txHash: string): Promise<CheckoutSession> {
    return this.sessionCall(`/checkout/sessions/${id}/transactions`, { tx_hash: txHash });
  }

  /**
   * Closes a session the element gives up (another amount, "Start again", another wallet), so it claims
   * nothing; only with the session's secret (without it the service would refuse). Sent and forgotten:
   * `keepalive` lets it leave with the page, and a failure changes nothing the shopper sees (the session
   * then runs out on its own).
   */
  closeSession(id: string): void {
    const secret = secretOf(id);
    if (secret)
      fetch(`${this.base}/api/v1/checkout/sessions/${id}/close`, {
        method: 'POST',
        keepalive: true,
        headers: { 'x-client-secret': secret },
      }).catch(() => {});
  }

  /** URL of the session's server-sent events. */
  eventsUrl(id: string): string {
    return `${this.base}/api/v1/checkout/sessions/${id}/events`;
  }

  private async sessionCall(path: string, body?: object): Promise<CheckoutSession> {
    return (await callApi<{ session: CheckoutSession }>(this.base, path, body)).session;
  }
}

/**
 * One call of the public API under `<base>/api/v1`: a POST of `body`, or a GET without one, with the
 * session's `secret` when given; an error answer or a network failure throws {@link CheckoutApiError}.
 */
export async function callApi<T>(base: string, path: string, body?: object, secret?: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${base}/api/v1${path}`, {
      method: body ? 'POST' : 'GET',
      headers: body
        ? { 'content-type': 'application/json', ...(secret ? { 'x-client-secret': secret } : {}) }
        : {},
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    throw new CheckoutApiError('network', (error as Error).message, 0);
  }
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    throw new CheckoutApiError(
      typeof json.error_code === 'string' ? json.error_code : 'http_error',
      typeof json.message === 'string' ? json.message : response.statusText,
      response.status,
      Array.isArray(json.errors) ? (json.errors as Array<{ path: string; message: string }>) : [],
    );
  }
  return json as T;
}

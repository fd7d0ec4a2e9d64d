/** Where a checkout is, what its events carry, and the small helpers its parts share. */

/** Where the checkout is. */
export type CheckoutPhase =
  | 'loading'
  | 'load-error'
  /** Nothing can be paid here: the product is not active, or the payment link names no payment of it. */
  | 'inactive'
  | 'invalid-link'
  | 'connect'
  | 'connecting'
  | 'review'
  | 'wallet'
  | 'qr'
  | 'submitted'
  | 'confirming'
  | 'paid'
  | 'failed'
  | 'expired';

/** Detail of `checkout-success`. */
export interface CheckoutSuccessDetail {
  resolvedPaymentId: string;
  txHash: string;
  sessionId: string;
}

/** Detail of `checkout-failure`. */
export interface CheckoutFailureDetail {
  reason: 'failed' | 'expired';
  sessionId: string | null;
  error: string | null;
  /** The reverted transaction of a failed payment; null when nothing was sent. */
  txHash: string | null;
  /** The resolved payment the service recorded for a failed transaction, if any. */
  resolvedPaymentId: string | null;
}

/** The step of the progress list each phase is at (0 = Connect … 5 = Done, Failed or Expired). */
export const stepOfPhase: Record<CheckoutPhase, number> = {
  loading: 0,
  'load-error': 0,
  inactive: 0,
  'invalid-link': 0,
  connect: 0,
  connecting: 0,
  review: 1,
  wallet: 2,
  qr: 2,
  submitted: 3,
  confirming: 4,
  paid: 5,
  failed: 5,
  expired: 5,
};

/** Whether the checkout has ended: nothing more can be paid in it. */
export const isFinal = (phase: CheckoutPhase): boolean =>
  phase === 'paid' || phase === 'failed' || phase === 'expired';

/** Whether nothing can be paid in this checkout at all: no form, no wallets, no way to retry. */
export const isUnavailable = (phase: CheckoutPhase): boolean =>
  phase === 'inactive' || phase === 'invalid-link';

/** `url` when it is a web URL: a merchant-configured `javascript:` URL must never run in the shopper's page. */
export const webUrl = (url: string | undefined): string => (url && /^https?:\/\//i.test(url) ? url : '');

export function shortAddress(value: string): string {
  return value.length > 14 ? `${value.slice(0, 6)}…${value.slice(-4)}` : value;
}

/** Whether focus is on a control outside `root` (another part of the page), which must not lose it. */
export function focusElsewhere(root: Node): boolean {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (!active || active === document.body || active === document.documentElement) return false;
  return active.getRootNode() !== root && !(root instanceof ShadowRoot && active === root.host);
}

const txStorageKey = (sessionId: string) => `crypto-checkout:tx:${sessionId}`;

/** The transaction hash this tab sent for a session, kept across reloads. */
export function readStoredHash(sessionId: string): string {
  try {
    return sessionStorage.getItem(txStorageKey(sessionId)) ?? '';
  } catch {
    return '';
  }
}

export function storeHash(sessionId: string, hash: string): void {
  try {
    sessionStorage.setItem(txStorageKey(sessionId), hash);
  } catch {
    // Storage may be disabled; the hash stays in memory for this page.
  }
}

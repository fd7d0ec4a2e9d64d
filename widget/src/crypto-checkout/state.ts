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
  | 'expired'
  /** The session was closed (an attempt given up): it takes nothing. */
  | 'closed';

/** Detail of `checkout-success`. */
export interface CheckoutSuccessDetail {
  resolvedPaymentId: string;
  txHash: string;
  sessionId: string;
}

/** Detail of `checkout-failure`. */
export interface CheckoutFailureDetail {
  reason: 'failed' | 'expired' | 'closed';
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
  closed: 5,
};

/** Whether the checkout has ended: nothing more can be paid in it. */
export const isFinal = (phase: CheckoutPhase): boolean =>
  phase === 'paid' || phase === 'failed' || phase === 'expired' || phase === 'closed';

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

/** Where this tab keeps the transaction it sent for a session. */
export const hashKey = (sessionId: string) => `crypto-checkout:tx:${sessionId}`;
/** Where this tab keeps the session of its open amount's attempt, for a reload or a Back. */
export const attemptKey = (slug: string) => `crypto-checkout:attempt:${slug}`;

/** A value this tab kept (`sessionStorage`); empty when none, or when storage is disabled. */
export function readStored(key: string): string {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/** Keeps `value` for this tab (empty: forgets it); without storage it lives only in this page. */
export function store(key: string, value: string): void {
  try {
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  } catch {
    // Storage may be disabled.
  }
}

/** How the shopper came to this page, when it was a reload or a Back (or Forward); else undefined. */
export function navigationType(): 'reload' | 'back_forward' | undefined {
  const entry = globalThis.performance?.getEntriesByType?.('navigation')[0] as
    | PerformanceNavigationTiming
    | undefined;
  return entry?.type === 'reload' || entry?.type === 'back_forward' ? entry.type : undefined;
}

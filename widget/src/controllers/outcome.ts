/** The element's outcome: `checkout-success` or `checkout-failure`, once, and the merchant's page after it. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckoutFailureDetail, CheckoutSuccessDetail } from '../crypto-checkout/state.ts';
import { webUrl } from '../crypto-checkout/state.ts';

/**
 * Emits the outcome of a checkout once (bubbling, composed, cancelable) and, unless a listener cancels
 * it, takes the shopper to the merchant's URL for it (web URLs only).
 */
export class OutcomeController implements ReactiveController {
  /** Whether an outcome was emitted for the current attempt. */
  sent = false;
  private readonly host: ReactiveControllerHost & HTMLElement;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {}

  /** The payment resolved: `checkout-success`, then `url`. */
  success(detail: CheckoutSuccessDetail, url: string | undefined): void {
    if (this.emit('checkout-success', detail)) go(url);
  }

  /** The payment failed or the checkout expired: `checkout-failure`, then `url` unless the shopper `stays`. */
  failure(detail: CheckoutFailureDetail, url: string | undefined, stays: boolean): void {
    if (this.emit('checkout-failure', detail) && !stays) go(url);
  }

  /** A new attempt: its outcome is still to come. */
  reset(): void {
    this.sent = false;
  }

  private emit(type: 'checkout-success' | 'checkout-failure', detail: object): boolean {
    if (this.sent) return false;
    this.sent = true;
    const event = new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: true });
    return this.host.dispatchEvent(event);
  }
}

function go(url: string | undefined): void {
  const target = webUrl(url);
  if (target) window.location.assign(target);
}

/** The element's outcome: `checkout-success` or `checkout-failure`, once, and the merchant's page after it. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckoutFailureDetail, CheckoutSuccessDetail } from './state.ts';
import { webUrl } from './state.ts';

/** A redirect on its way: where to, and the site's name as the shopper reads it. */
export interface PendingRedirect {
  url: string;
  site: string;
}

/**
 * Emits the outcome of a checkout once (bubbling, composed, cancelable) — a success may still follow a
 * failure, when a late payment resolves an expired session — and, unless a listener cancels it, takes the
 * shopper to the merchant's URL for it (web URLs only) once the outcome has been on screen for the host's
 * `redirectDelay` seconds (0: at once).
 */
export class OutcomeController implements ReactiveController {
  /** The outcome told for the current attempt (a late payment may still follow an expiry). */
  private toldAs: 'success' | 'failure' | undefined;
  /** The redirect the shopper is told about while it waits. */
  pending: PendingRedirect | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly host: ReactiveControllerHost & HTMLElement & { redirectDelay: number };

  constructor(host: ReactiveControllerHost & HTMLElement & { redirectDelay: number }) {
    this.host = host;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.cancel();
  }

  /** The payment resolved (also after an expiry, paid late): `checkout-success`, then `url`. */
  success(detail: CheckoutSuccessDetail, url: string | undefined): void {
    if (this.toldAs === 'success') return;
    this.cancel();
    this.toldAs = 'success';
    if (this.emit('checkout-success', detail)) this.go(url);
  }

  /** The payment failed or the checkout expired or closed: `checkout-failure`, then `url` unless the shopper `stays`. */
  failure(detail: CheckoutFailureDetail, url: string | undefined, stays: boolean): void {
    if (this.toldAs) return;
    this.toldAs = 'failure';
    if (this.emit('checkout-failure', detail) && !stays) this.go(url);
  }

  /** An outcome the page found already told (the shopper came back to it): not told, nor redirected to, again. */
  told(success: boolean): void {
    if (success) this.toldAs = 'success';
    else this.toldAs ??= 'failure';
  }

  /** A new attempt: its outcome is still to come. */
  reset(): void {
    this.toldAs = undefined;
    this.cancel();
  }

  /** The shopper stays: a redirect on its way is dropped. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending) this.host.requestUpdate();
    this.pending = undefined;
  }

  private emit(type: 'checkout-success' | 'checkout-failure', detail: object): boolean {
    const event = new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: true });
    return this.host.dispatchEvent(event);
  }

  private go(url: string | undefined): void {
    const target = webUrl(url);
    if (!target) return;
    const delay = this.host.redirectDelay;
    if (!(delay > 0)) {
      window.location.assign(target);
      return;
    }
    this.pending = { url: target, site: new URL(target).host };
    this.host.requestUpdate();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      window.location.assign(target);
    }, delay * 1000);
  }
}

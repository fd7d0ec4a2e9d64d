/** Follows a checkout session through its server-sent events, polling when the stream is unavailable. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckoutApi, CheckoutSession } from '../api.ts';

/** States after which nothing changes any more. */
const terminal = new Set(['resolved', 'failed', 'closed']);
/** Failed connections in a row after which the stream is given up for polling (a proxy that blocks it). */
const maxStreamErrors = 3;
/** Poll period when the event stream fails; bounded to an hour of polling. */
const pollMs = 2_000;
const maxPolls = 1_800;
/**
 * How long an expired session is still followed: the service's grace window (`CHECKOUT_GRACE_MINUTES`,
 * 60 by default), in which a payment that arrives late still resolves it.
 */
const graceMs = 60 * 60_000;

/**
 * Calls `onSession` on every change of the followed session, from the moment it opens until it is
 * resolved, failed or closed — or, once expired, until its grace window is over — or the host
 * disconnects. A stream the server ends (after ten minutes) is opened again by the browser; one the
 * browser gives up, or that fails three times in a row, is replaced by polling.
 */
export class SessionStreamController implements ReactiveController {
  private source: EventSource | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private endTimer: ReturnType<typeof setTimeout> | undefined;
  private followed: { api: CheckoutApi; id: string } | undefined;
  private readonly onSession: (session: CheckoutSession) => void;

  constructor(host: ReactiveControllerHost, onSession: (session: CheckoutSession) => void) {
    this.onSession = onSession;
    host.addController(this);
  }

  /** Starts following session `id` (a no-op if already followed). */
  follow(api: CheckoutApi, id: string): void {
    if (this.followed?.id === id) return;
    this.stop();
    this.followed = { api, id };
    this.open();
  }

  hostConnected(): void {
    this.resume();
  }

  hostDisconnected(): void {
    this.pause();
  }

  /** Stops following. */
  stop(): void {
    this.pause();
    clearTimeout(this.endTimer);
    this.endTimer = undefined;
    this.followed = undefined;
  }

  /** Closes the connection but keeps the session to follow (a page going into the back-forward cache). */
  pause(): void {
    this.source?.close();
    this.source = undefined;
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** Follows the session again after a pause: the stream's first event is the session as it is now. */
  resume(): void {
    if (this.followed && !this.source && !this.pollTimer) this.open();
  }

  private open(): void {
    const followed = this.followed;
    if (!followed) return;
    if (typeof EventSource === 'undefined') {
      this.poll(0);
      return;
    }
    const source = new EventSource(followed.api.eventsUrl(followed.id));
    this.source = source;
    let errors = 0;
    source.addEventListener('session', (event) => {
      errors = 0;
      this.seen(JSON.parse((event as MessageEvent<string>).data) as CheckoutSession);
    });
    source.onerror = () => {
      // Reconnecting by itself (the server ends a stream after ten minutes): the browser opens it again.
      if (source.readyState === EventSource.CONNECTING && ++errors < maxStreamErrors) return;
      source.close();
      if (this.source === source) {
        this.source = undefined;
        this.poll(0);
      }
    };
  }

  /** Hands the session on; stops after a final state, or when an expired session's grace window ends. */
  private seen(session: CheckoutSession): void {
    if (this.followed?.id !== session.id) return;
    this.onSession(session);
    if (terminal.has(session.status)) {
      this.stop();
    } else if (session.status === 'expired' && session.expires_at && !this.endTimer) {
      const left = Date.parse(session.expires_at) + graceMs - Date.now();
      this.endTimer = setTimeout(() => this.stop(), Math.max(0, left));
    }
  }

  private poll(count: number): void {
    const followed = this.followed;
    if (!followed || count >= maxPolls) return;
    this.pollTimer = setTimeout(() => void this.pollOnce(followed, count), count === 0 ? 0 : pollMs);
  }

  private async pollOnce(followed: { api: CheckoutApi; id: string }, count: number): Promise<void> {
    try {
      const session = await followed.api.session(followed.id);
      if (this.followed !== followed) return;
      this.seen(session);
      if (terminal.has(session.status)) return;
    } catch {
      // A failed poll is retried at the next period.
    }
    if (this.followed === followed) this.poll(count + 1);
  }
}

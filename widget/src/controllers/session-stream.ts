/** Follows a checkout session through its server-sent events, polling when the stream is unavailable. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckoutApi, CheckoutSession } from '../api.ts';

const terminal = new Set(['resolved', 'failed', 'expired']);
/** Poll period when the event stream fails; bounded to an hour of polling. */
const pollMs = 2_000;
const maxPolls = 1_800;

/** Calls `onSession` on every change of the followed session until it ends or the host disconnects. */
export class SessionStreamController implements ReactiveController {
  private source: EventSource | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
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
    if (this.followed && !this.source && !this.pollTimer) this.open();
  }

  hostDisconnected(): void {
    this.close();
  }

  /** Stops following. */
  stop(): void {
    this.close();
    this.followed = undefined;
  }

  private close(): void {
    this.source?.close();
    this.source = undefined;
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
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
    source.addEventListener('session', (event) => {
      const session = JSON.parse((event as MessageEvent<string>).data) as CheckoutSession;
      this.onSession(session);
      if (terminal.has(session.status)) this.close();
    });
    source.onerror = () => {
      // The server ends the stream after ten minutes or on a final state; polling takes over either way.
      source.close();
      if (this.source === source) {
        this.source = undefined;
        this.poll(0);
      }
    };
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
      this.onSession(session);
      if (terminal.has(session.status)) return;
    } catch {
      // A failed poll is retried at the next period.
    }
    if (this.followed === followed) this.poll(count + 1);
  }
}

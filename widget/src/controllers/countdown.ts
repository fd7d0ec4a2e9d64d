/** Counts down to a deadline once a second while the host is connected. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Remaining time to a deadline; the host re-renders every tick and is told once when it reaches zero. */
export class CountdownController implements ReactiveController {
  /** Milliseconds left, or null without a deadline. */
  remainingMs: number | null = null;
  private deadline: number | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly host: ReactiveControllerHost;
  private readonly onExpire: () => void;
  private expiredSignalled = false;

  constructor(host: ReactiveControllerHost, onExpire: () => void) {
    this.host = host;
    this.onExpire = onExpire;
    host.addController(this);
  }

  /** Starts counting to `deadline` (epoch ms), or stops with null. */
  set(deadline: number | null): void {
    if (deadline === this.deadline) return;
    this.deadline = deadline;
    this.expiredSignalled = false;
    this.tick();
    this.schedule();
  }

  hostConnected(): void {
    this.schedule();
  }

  hostDisconnected(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    clearInterval(this.timer);
    this.timer = this.deadline === null ? undefined : setInterval(() => this.tick(), 1_000);
  }

  private tick(): void {
    this.remainingMs = this.deadline === null ? null : Math.max(0, this.deadline - Date.now());
    this.host.requestUpdate();
    if (this.remainingMs === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      if (!this.expiredSignalled) {
        this.expiredSignalled = true;
        this.onExpire();
      }
    }
  }
}

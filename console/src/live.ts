/**
 * Keeps a page current without a reload: every {@link liveIntervalMs} while the tab is visible (and at once
 * when it is shown again), it asks the API again for what the page shows, naming the ETag of the answer it
 * has (`If-None-Match`). While nothing changed the service answers `304` without a body; when an answer
 * differs, the page loads again. The service pushes no merchant-wide events; a check costs the answer's reads
 * on the server but no body on the wire and no rendering here, and a hidden tab makes none.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How often a visible page asks whether what it shows changed. */
const liveIntervalMs = 10_000;

/** An answer of the typed client, of which only the response's status and ETag are read. */
type Answer = { response: Response };

/** One thing the page shows: asked again with the ETag it was last read with. */
type Probe = (headers: Record<string, string>) => Promise<Answer>;

/** A page's live refresh (a Lit reactive controller). */
export class LiveRefresh implements ReactiveController {
  private readonly etags = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private checking = false;

  /**
   * `probes` names what the page shows now (each asked again as is); `changed` loads the page again.
   */
  constructor(
    host: ReactiveControllerHost,
    private readonly probes: () => Record<string, Probe> | undefined,
    private readonly changed: () => Promise<void>,
  ) {
    host.addController(this);
  }

  /** Notes the ETag of an answer the page loaded, so that the next check asks whether it changed since. */
  note(key: string, answer: Answer): void {
    const etag = answer.response.headers.get('ETag');
    if (etag) this.etags.set(key, etag);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onVisibility);
    this.schedule();
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onVisibility);
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly onVisibility = () => {
    if (document.visibilityState === 'visible') void this.check();
  };

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), liveIntervalMs);
  }

  /** Asks each probe with its ETag; loads the page again when any answer changed. */
  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const probes = document.visibilityState === 'visible' ? this.probes() : undefined;
      if (!probes) return;
      const answers = await Promise.all(
        Object.entries(probes).map(async ([key, probe]) => {
          const known = this.etags.get(key);
          const { response } = await probe(known ? { 'If-None-Match': known } : {});
          return response.status === 200 && response.headers.get('ETag') !== known;
        }),
      );
      if (answers.some(Boolean)) await this.changed();
    } catch {
      // Offline or signed out: the next check tries again, and the page's own actions say what is wrong.
    } finally {
      this.checking = false;
      if (this.timer !== undefined) this.schedule();
    }
  }
}

/** Finds the browser's injected wallets through EIP-6963, with `window.ethereum` as the fallback. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** An EIP-1193 provider, as far as the element calls it. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
}

/** One wallet the shopper can pick. */
export interface DiscoveredWallet {
  /** The EIP-6963 reverse-DNS id, or `injected` for `window.ethereum`. */
  id: string;
  name: string;
  /** A data URI (EIP-6963 requires one); empty for the fallback. */
  icon: string;
  provider: Eip1193Provider;
}

interface AnnounceDetail {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
}

const injected = (): Eip1193Provider | undefined => (window as { ethereum?: Eip1193Provider }).ethereum;

/**
 * Lists wallets while the host is connected, and re-renders it when one announces itself or a
 * `window.ethereum` appears late (`ethereum#initialized`, or found again when the shopper moves into the
 * element). Discovery starts in a task after the host connected, so it never holds up the first render.
 */
export class WalletDiscoveryController implements ReactiveController {
  wallets: DiscoveredWallet[] = [];
  private readonly host: ReactiveControllerHost & HTMLElement;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  /** Ends the listening, while it goes on. */
  private listening: AbortController | undefined;
  /** Whether a render read the list, and the `window.ethereum` it then offered. */
  private listed = false;
  private shownInjected: Eip1193Provider | undefined;
  private readonly onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<AnnounceDetail>).detail;
    if (!detail?.info?.rdns || !detail.provider) return;
    // Only data: icons: an arbitrary URL would let a page load remote content through the element.
    const icon = detail.info.icon?.startsWith('data:image/') ? detail.info.icon : '';
    const wallet = { id: detail.info.rdns, name: detail.info.name, icon, provider: detail.provider };
    this.wallets = [...this.wallets.filter((w) => w.id !== wallet.id), wallet];
    this.host.requestUpdate();
  };
  /** Re-renders when `window.ethereum` is not the one the list shows (only while no wallet announced). */
  private readonly recheck = () => {
    if (this.listed && this.wallets.length === 0 && injected() !== this.shownInjected)
      this.host.requestUpdate();
  };

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {
    clearTimeout(this.startTimer);
    this.startTimer = setTimeout(() => this.start(), 0);
  }

  hostDisconnected(): void {
    clearTimeout(this.startTimer);
    this.startTimer = undefined;
    this.listening?.abort();
    this.listening = undefined;
  }

  private start(): void {
    this.startTimer = undefined;
    if (this.listening || !this.host.isConnected) return;
    this.listening = new AbortController();
    const options = { signal: this.listening.signal };
    window.addEventListener('eip6963:announceProvider', this.onAnnounce, options);
    // MetaMask's documented signal for a provider injected after the page loaded.
    window.addEventListener('ethereum#initialized', this.recheck, options);
    this.host.addEventListener('focusin', this.recheck, options);
    this.host.addEventListener('pointerenter', this.recheck, options);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    this.recheck();
  }

  /** The announced wallets, or the legacy injected provider when none announced. */
  get available(): DiscoveredWallet[] {
    if (this.wallets.length > 0) return this.wallets;
    const legacy = injected();
    this.listed = true;
    this.shownInjected = legacy;
    return legacy ? [{ id: 'injected', name: '', icon: '', provider: legacy }] : [];
  }
}

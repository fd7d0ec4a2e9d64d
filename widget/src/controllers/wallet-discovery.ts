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

/** Lists wallets while the host is connected, and re-renders it when one announces itself. */
export class WalletDiscoveryController implements ReactiveController {
  wallets: DiscoveredWallet[] = [];
  private readonly host: ReactiveControllerHost;
  private readonly onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<AnnounceDetail>).detail;
    if (!detail?.info?.rdns || !detail.provider) return;
    // Only data: icons: an arbitrary URL would let a page load remote content through the element.
    const icon = detail.info.icon?.startsWith('data:image/') ? detail.info.icon : '';
    const wallet = { id: detail.info.rdns, name: detail.info.name, icon, provider: detail.provider };
    this.wallets = [...this.wallets.filter((w) => w.id !== wallet.id), wallet];
    this.host.requestUpdate();
  };

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('eip6963:announceProvider', this.onAnnounce);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
  }

  hostDisconnected(): void {
    window.removeEventListener('eip6963:announceProvider', this.onAnnounce);
  }

  /** The announced wallets, or the legacy injected provider when none announced. */
  get available(): DiscoveredWallet[] {
    if (this.wallets.length > 0) return this.wallets;
    const legacy = (window as { ethereum?: Eip1193Provider }).ethereum;
    return legacy ? [{ id: 'injected', name: '', icon: '', provider: legacy }] : [];
  }
}

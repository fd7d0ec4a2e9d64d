/** The browser's wallets, one button each: how a payment starts (the refund pay page lists them too). */
import { html, nothing, type TemplateResult } from 'lit';
import type { DiscoveredWallet } from '../controllers/wallet-discovery.ts';

/** The browser's wallets, one button each, whose words `label` writes from the wallet's name (maybe empty). */
export function renderWallets(
  wallets: DiscoveredWallet[],
  disabled: boolean,
  label: (name: string) => string,
  onPick: (wallet: DiscoveredWallet) => void,
): TemplateResult | typeof nothing {
  if (wallets.length === 0) return nothing;
  return html`<ul part="wallet-list">
    ${wallets.map(
      (w) => html`<li>
        <button part="wallet-button" type="button" ?disabled=${disabled} @click=${() => onPick(w)}>
          ${w.icon ? html`<img src=${w.icon} alt="" />` : nothing}
          <span>${label(w.name)}</span>
        </button>
      </li>`,
    )}
  </ul>`;
}

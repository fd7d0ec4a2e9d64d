/** How the console writes dates, amounts, hashes and links to a chain's explorer. */
import { html, nothing, type TemplateResult } from 'lit';

/** A date and time in the page's language (to the second with `seconds`). */
export function when(iso: string | null | undefined, locale: string, seconds = false): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(locale, {
    dateStyle: 'medium',
    timeStyle: seconds ? 'medium' : 'short',
  });
}

/** An amount as the API gives it (a decimal string) with its token: never a float. */
export const amount = (value: string, symbol: string) => `${value} ${symbol}`;

/** A hash or address cut to its ends, the whole value in its title. */
export const short = (value: string) =>
  value.length > 14 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;

/** Block explorers of the chains the service runs on. */
const explorers: Record<number, string> = {
  1: 'https://etherscan.io',
  11155111: 'https://sepolia.etherscan.io',
  56: 'https://bscscan.com',
  97: 'https://testnet.bscscan.com',
  137: 'https://polygonscan.com',
  80002: 'https://amoy.polygonscan.com',
};

/** The chain id of a token's blockchain and network, as the service runs them. */
export function chainIdOf(token: { blockchain: string; network: string }): number | undefined {
  const ids: Record<string, [number, number]> = {
    ethereum: [1, 11155111],
    'binance-smart-chain': [56, 97],
    polygon: [137, 80002],
  };
  return ids[token.blockchain]?.[token.network === 'mainnet' ? 0 : 1];
}

/** A transaction hash, linked to its chain's explorer when the chain has one. */
export function txLink(
  chainId: number | undefined,
  hash: string | null | undefined,
): TemplateResult | typeof nothing {
  if (!hash) return nothing;
  const explorer = chainId === undefined ? undefined : explorers[chainId];
  const text = html`<span class="hash" title=${hash}>${short(hash)}</span>`;
  return explorer
    ? html`<a href=${`${explorer}/tx/${hash}`} target="_blank" rel="noopener noreferrer">${text}</a>`
    : text;
}

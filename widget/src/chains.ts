/** Names of the product chains as shoppers and wallets know them (kept tiny: the shell imports it). */

const names: Record<string, string> = {
  'ethereum:mainnet': 'Ethereum',
  'binance-smart-chain:mainnet': 'BNB Smart Chain',
  'binance-smart-chain:testnet': 'BNB Smart Chain Testnet',
  'polygon:mainnet': 'Polygon',
};

/** The chain's display name, e.g. "BNB Smart Chain Testnet"; the chain id for an unknown chain. */
export function chainName(view: { blockchain: string; network: string; chain_id: number }): string {
  return names[`${view.blockchain}:${view.network}`] ?? `chain ${view.chain_id}`;
}

const nativeSymbols: Record<string, string> = { 'binance-smart-chain': 'BNB', polygon: 'POL' };

/** Symbol of the chain's own coin, which pays network fees ("BNB", "POL", "ETH"). */
export function nativeSymbol(view: { blockchain: string }): string {
  return nativeSymbols[view.blockchain] ?? 'ETH';
}

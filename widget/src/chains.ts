/** Names of the product chains as shoppers and wallets know them (kept tiny: the shell imports it). */

const names: Record<string, string> = {
  'ethereum:mainnet': 'Ethereum',
  'binance-smart-chain:mainnet': 'BNB Smart Chain',
  'binance-smart-chain:testnet': 'BNB Smart Chain Testnet',
  'polygon:mainnet': 'Polygon',
  'ethereum:testnet': 'Ethereum Sepolia',
  'polygon:testnet': 'Polygon Amoy',
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

/** Block explorers of the public chains, by chain id. */
const explorers: Record<number, { name: string; url: string }> = {
  1: { name: 'Etherscan', url: 'https://etherscan.io' },
  56: { name: 'BscScan', url: 'https://bscscan.com' },
  97: { name: 'BscScan', url: 'https://testnet.bscscan.com' },
  137: { name: 'PolygonScan', url: 'https://polygonscan.com' },
  80002: { name: 'PolygonScan', url: 'https://amoy.polygonscan.com' },
  11155111: { name: 'Etherscan', url: 'https://sepolia.etherscan.io' },
};

/** Whether an RPC URL points at this machine: a local chain, even one that borrows a public chain's id. */
function isLocalRpc(rpcUrl: string): boolean {
  try {
    const host = new URL(rpcUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * Where the shopper can look a transaction up: the chain's explorer and the transaction's page there; null
 * for an unknown chain, or a local one (served from this machine), whose transactions no explorer has.
 */
export function explorerOf(
  view: { chain_id: number; rpc_url: string | null },
  txHash: string,
): { name: string; url: string } | null {
  const explorer = explorers[view.chain_id];
  if (!explorer || (view.rpc_url && isLocalRpc(view.rpc_url)) || !/^0x[0-9a-fA-F]{64}$/.test(txHash))
    return null;
  return { name: explorer.name, url: `${explorer.url}/tx/${txHash}` };
}

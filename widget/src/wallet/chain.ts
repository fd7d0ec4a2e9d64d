/** The product's chain as viem describes it, and the wallet moved onto it. */
import { type Config, getConnection, switchChain } from '@wagmi/core';
import { type Chain, defineChain } from 'viem';
import { chainName, nativeSymbol } from '../chains.ts';
import { causes, WrongChainError } from './errors.ts';
import type { ChainTarget } from './types.ts';

/** The product's chain, with the view's RPC URL for reads and for wallets that add it. */
export function chainOf(view: ChainTarget): Chain {
  const symbol = nativeSymbol(view);
  return defineChain({
    id: view.chain_id,
    name: chainName(view),
    nativeCurrency: { name: symbol, symbol, decimals: 18 },
    rpcUrls: { default: { http: view.rpc_url ? [view.rpc_url] : [] } },
    testnet: view.is_test,
  });
}

/**
 * Asks the wallet to move to `chain` when it is elsewhere; a wallet that does not know the chain (4902)
 * is asked to add it, with the view's public RPC URL, and — when it added the chain but stayed where it
 * was, as some wallets do — asked at once to switch to it. Any other failure, a refusal included, leaves
 * the wallet on the wrong network.
 */
export async function ensureChain(config: Config, chain: Chain): Promise<void> {
  if (getConnection(config).chainId === chain.id) return;
  try {
    await switchChain(config, { chainId: chain.id }).catch((error: unknown) => {
      if (!addedWithoutSwitching(error)) throw error;
      return switchChain(config, { chainId: chain.id });
    });
  } catch (error) {
    throw new WrongChainError((error as Error).message, { cause: error });
  }
  const now = getConnection(config).chainId;
  if (now !== undefined && now !== chain.id) throw new WrongChainError(`wallet on chain ${now}`);
}

/** Whether a failed switch is wagmi's "the wallet added the chain, but did not move to it". */
function addedWithoutSwitching(error: unknown): boolean {
  return [...causes(error)].some((e) => /switch after adding network/i.test(e.message ?? ''));
}

/** The chains quotes and onramps are made on, shared by both families. */
import type { TokenRegistry } from '@checkout/core';

/** The token registry's chains of one network, each usable only with an RPC endpoint. */
export interface RampChains {
  tokens: TokenRegistry;
  /** Whether the service has an RPC endpoint for the chain. */
  hasChain(chainId: number): boolean;
  /** `mainnet` in production, `testnet` elsewhere. */
  network: 'mainnet' | 'testnet';
}

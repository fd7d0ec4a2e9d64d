/** Blocks mined on a test network's dev chain, for the confirmations a payment or a refund waits for. */
import { ApiError, notFound } from '@checkout/core';
import { mineBlocks, requireDevChain } from './devChain.ts';
import type { SandboxDeps } from './shared.ts';

/** Mines `blocks` blocks on the dev chain `chainId`; the first and the last. */
export async function mineTestChain(
  deps: Pick<SandboxDeps, 'chains' | 'tokens'>,
  chainId: number,
  blocks: number,
): Promise<{ from: bigint; to: bigint }> {
  const known = deps.tokens.chainById(chainId);
  const chain = deps.chains.get(chainId);
  if (!known || !chain) throw notFound('Chain');
  if (known.network !== 'testnet') {
    throw new ApiError(
      'conflict',
      `${known.name} (chain id ${chainId}) is a live network: the sandbox mines on test networks only`,
    );
  }
  return mineBlocks(await requireDevChain(chain, 'mining blocks'), blocks);
}

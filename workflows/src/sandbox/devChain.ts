/**
 * What only a local dev chain (Hardhat's EDR, as `npm start` runs it) can do for the sandbox: mine blocks on
 * demand, set the next block's time, take a snapshot and go back to it (a reorganisation), and send from any
 * address. A public test network cannot: these moves answer 409 there.
 */
import type { ChainClient } from '@checkout/chain';
import { ApiError } from '@checkout/core';
import { type Address, type Hash, type Hex, numberToHex, type PublicClient } from 'viem';
import { getBlock, getBlockNumber, waitForTransactionReceipt } from 'viem/actions';

const known = new WeakSet<PublicClient>();

/** Whether the chain is a local dev chain (it answers Hardhat's methods); a yes is remembered per client. */
export async function isDevChain(chain: ChainClient): Promise<boolean> {
  if (known.has(chain.client)) return true;
  const dev = await call(chain.client, 'hardhat_metadata', []).then(
    () => true,
    () => false,
  );
  if (dev) known.add(chain.client);
  return dev;
}

/** The chain's client when it is a dev chain; a 409 saying `what` needs one otherwise. */
export async function requireDevChain(chain: ChainClient, what: string): Promise<PublicClient> {
  if (await isDevChain(chain)) return chain.client;
  throw new ApiError(
    'conflict',
    `${chain.name} (chain id ${chain.chainId}) is not a local dev chain: ${what} needs one (npm start runs one per test network)`,
  );
}

/** One JSON-RPC call of a method viem does not type. */
function call(client: PublicClient, method: string, params: unknown[]): Promise<unknown> {
  return client.request({ method: method as 'eth_chainId', params: params as unknown as undefined });
}

/** Mines `blocks` blocks; the first and the last. */
export async function mineBlocks(
  client: PublicClient,
  blocks: number,
): Promise<{ from: bigint; to: bigint }> {
  const before = await getBlockNumber(client, { cacheTime: 0 });
  await call(client, 'hardhat_mine', [numberToHex(blocks)]);
  return { from: before + 1n, to: before + BigInt(blocks) };
}

/** The dev chain's state now, to go back to. */
export async function takeSnapshot(client: PublicClient): Promise<unknown> {
  return call(client, 'evm_snapshot', []);
}

/** Goes back to `snapshot`: every block since is gone from the chain. */
export async function revertTo(client: PublicClient, snapshot: unknown): Promise<void> {
  const reverted = await call(client, 'evm_revert', [snapshot]);
  if (reverted !== true) throw new Error('the dev chain refused to go back to its snapshot');
}

/** The next block is stamped no earlier than `atMs` (epoch ms), rounded up to the next whole second. */
export async function stampNextBlockAfter(client: PublicClient, atMs: number): Promise<void> {
  const latest = await getBlock(client, { blockTag: 'latest' });
  const at = BigInt(Math.floor(atMs / 1000) + 1);
  const next = at > latest.timestamp ? at : latest.timestamp + 1n;
  await call(client, 'evm_setNextBlockTimestamp', [numberToHex(next)]);
}

/** Hashes of the blocks after `from` up to the head. */
export async function blockHashesAfter(client: PublicClient, from: bigint): Promise<string[]> {
  const head = await getBlockNumber(client, { cacheTime: 0 });
  const hashes: string[] = [];
  for (let n = from + 1n; n <= head; n++) {
    hashes.push((await getBlock(client, { blockNumber: n })).hash.toLowerCase());
  }
  return hashes;
}

/** Sends `transaction` as `from` would (its key is not needed on a dev chain), with gas money given to it. */
export async function sendAs(client: PublicClient, from: Address, transaction: { to: Address; data: Hex }) {
  await call(client, 'hardhat_setBalance', [from, numberToHex(10n ** 18n)]);
  await call(client, 'hardhat_impersonateAccount', [from]);
  try {
    const hash = (await call(client, 'eth_sendTransaction', [
      { from, to: transaction.to, data: transaction.data, value: '0x0' },
    ])) as Hash;
    return await waitForTransactionReceipt(client, { hash, timeout: 60_000, pollingInterval: 50 });
  } finally {
    await call(client, 'hardhat_stopImpersonatingAccount', [from]);
  }
}

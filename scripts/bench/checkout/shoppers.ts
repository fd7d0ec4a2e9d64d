/** The dev chain's funded shoppers (#1..#5) sending token transfers, one at a time per account. */
import { type DevDeployment, defineDevChain, erc20Abi } from '@checkout/chain';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hash,
  http,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** A transfer that is in a block. */
interface MinedTransfer {
  hash: Hash;
  /** Wall time (epoch ms) when `waitForTransactionReceipt` returned. */
  minedAt: number;
  /** The same instant on the monotonic clock (performance.now()). */
  minedAtMono: number;
}

/** Sends transfers from the funded shoppers; each account sends strictly one transaction at a time. */
export interface Shoppers {
  count: number;
  address(index: number): Address;
  /**
   * Transfers `amount` base units of `token` from shopper `index` (mod count) to `to`, with a checkout
   * session's `reference` appended to the call when given, and waits for its receipt.
   */
  transfer(
    index: number,
    token: Address,
    to: Address,
    amount: bigint,
    reference?: string,
  ): Promise<MinedTransfer>;
}

/** Connects the shoppers of `deployment` to the chain at `rpcUrl`. */
export async function connectShoppers(
  deployment: DevDeployment,
  rpcUrl: string,
  chainId: number,
): Promise<Shoppers> {
  const chain = defineDevChain({ chainId, rpcUrl });
  const publicClient = createPublicClient({
    chain,
    transport: http(rpcUrl),
    pollingInterval: 10,
  }) as PublicClient;
  const block = await publicClient.getBlock();
  // Fixed fees well above the dev chain's base fee, so no fee look-up precedes each send.
  const maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 4n + 2_000_000_000n;
  const maxPriorityFeePerGas = 1_000_000_000n;
  const accounts = await Promise.all(
    deployment.shoppers.map(async (shopper) => {
      const account = privateKeyToAccount(shopper.privateKey);
      const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
      const nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
      return { account, wallet, nonce, queue: Promise.resolve() as Promise<unknown> };
    }),
  );
  if (accounts.length === 0) throw new Error('the dev deployment has no shoppers');
  const pick = (index: number) => accounts[index % accounts.length]!;

  return {
    count: accounts.length,
    address: (index) => pick(index).account.address,
    transfer(index, token, to, amount, reference) {
      const shopper = pick(index);
      const send = async (): Promise<MinedTransfer> => {
        const nonce = shopper.nonce;
        const hash = await shopper.wallet.sendTransaction({
          to: token,
          data: `${encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })}${reference?.replace(/^0x/, '') ?? ''}`,
          nonce,
          gas: 100_000n,
          maxFeePerGas,
          maxPriorityFeePerGas,
        });
        shopper.nonce = nonce + 1;
        const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
        const minedAt = Date.now();
        const minedAtMono = performance.now();
        if (receipt.status !== 'success') throw new Error(`transfer ${hash} reverted`);
        return { hash, minedAt, minedAtMono };
      };
      const result = shopper.queue.then(send, send);
      shopper.queue = result.catch(() => {});
      return result;
    },
  };
}

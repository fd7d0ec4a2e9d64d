/** A local dev chain with test tokens and pools, and shopper helpers, for one test file. */
import {
  broadcastSignedTransaction,
  type DevChain,
  type DevDeployment,
  defineDevChain,
  erc20Abi,
  erc20NoReturnAbi,
  prepareTokenTransfer,
  quoteExactOutput,
  swapTokensForExactTokens,
  withSlippage,
} from '@checkout/chain';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { inject } from 'vitest';
import type { LentChain } from '../setup/chains.ts';

/** A started, bootstrapped chain. */
export interface TestChain {
  chain: DevChain;
  deployment: DevDeployment;
  publicClient: PublicClient;
  /** Sends `amount` base units of `token` from shopper `index` to `to`; returns the hash once mined. */
  transfer(
    index: number,
    token: Address,
    to: Address,
    amount: bigint,
    /** `reference`: a checkout session's reference, appended to the call's data. */
    options?: { gas?: bigint; reference?: string },
  ): Promise<Hash>;
  /** Sends a session's `transaction` (`to`, `data`) from shopper `index`; returns the hash once mined. */
  send(index: number, transaction: { to: string; data: string }): Promise<Hash>;
  /** Sends a transfer the token refuses (more than the balance), mined with a fixed gas limit so it reverts on chain. */
  sendReverting(
    index: number,
    token: Address,
    to: Address,
    amount: bigint,
    reference?: string,
  ): Promise<Hash>;
  /** Pays exactly `amountOut` of `tokenOut` to `to`, spending `tokenIn` through the router. */
  swapExactOut(
    index: number,
    tokenIn: Address,
    tokenOut: Address,
    amountOut: bigint,
    to: Address,
    /** A checkout session's reference, appended to the swap's data. */
    reference?: string,
  ): Promise<Hash>;
  /** Mines `blocks` empty blocks. */
  mine(blocks: number): Promise<void>;
  /** Gives the chain back to the lender, which lends it again as it was right after its bootstrap. */
  stop(): Promise<void>;
}

/** Borrows a bootstrapped chain of `chainId` from the run's lender (`test/setup/chains.ts`). */
async function borrowDevChain(chainId: number): Promise<{ chain: DevChain; deployment: DevDeployment }> {
  const lender = inject('chainLenderUrl');
  if (!lender)
    throw new Error("no dev-chain lender: add 'test/setup/chains.ts' to the project's globalSetup");
  const response = await fetch(`${lender}/lend?chain_id=${chainId}`, { method: 'POST' });
  if (!response.ok) throw new Error(`no dev chain of id ${chainId}: ${await response.text()}`);
  const lent = (await response.json()) as LentChain;
  let returned: Promise<void> | undefined;
  const chain: DevChain = {
    rpcUrl: lent.rpcUrl,
    chainId: lent.chainId,
    pid: lent.pid,
    stop: () =>
      (returned ??= fetch(`${lender}/return?pid=${lent.pid}`, { method: 'POST' }).then(async (r) => {
        await r.body?.cancel();
      })),
  };
  return { chain, deployment: lent.deployment };
}

/**
 * A chain as a test network (BNB Smart Chain's, id 97, unless another id is given) with the test tokens and
 * pools deployed, borrowed for one test file.
 */
export async function startTestChain(chainId = 97): Promise<TestChain> {
  const { chain, deployment } = await borrowDevChain(chainId);
  const viemChain = defineDevChain({ chainId, rpcUrl: chain.rpcUrl });
  const publicClient = createPublicClient({
    chain: viemChain,
    transport: http(chain.rpcUrl),
    pollingInterval: 50,
  }) as PublicClient;
  const wallet = (index: number) =>
    createWalletClient({
      account: privateKeyToAccount(deployment.shoppers[index]!.privateKey),
      chain: viemChain,
      transport: http(chain.rpcUrl),
    });
  const noReturn = new Set(
    Object.values(deployment.tokens)
      .filter((t) => t.noReturnTransfer)
      .map((t) => t.address.toLowerCase()),
  );
  return {
    chain,
    deployment,
    publicClient,
    async transfer(index, token, to, amount, options = {}) {
      const hash = await wallet(index).writeContract({
        address: token,
        abi: noReturn.has(token.toLowerCase()) ? erc20NoReturnAbi : erc20Abi,
        functionName: 'transfer',
        args: [to, amount],
        ...(options.gas ? { gas: options.gas } : {}),
        ...(options.reference ? { dataSuffix: options.reference as Hex } : {}),
      });
      await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
      return hash;
    },
    async send(index, transaction) {
      const hash = await wallet(index).sendTransaction({
        to: transaction.to as Address,
        data: transaction.data as Hex,
      });
      await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
      return hash;
    },
    async sendReverting(index, token, to, amount, reference) {
      if (reference) {
        // A transfer the token refuses, carrying a checkout's reference, signed here and mined with a fixed
        // gas limit (the node reports the revert, and mines it).
        const account = privateKeyToAccount(deployment.shoppers[index]!.privateKey);
        const serialized = await account.signTransaction({
          chainId,
          type: 'eip1559',
          nonce: await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
          gas: 100_000n,
          ...(await publicClient.estimateFeesPerGas()),
          to: token,
          data: `${encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })}${reference.slice(2)}`,
          value: 0n,
        });
        const hash = await broadcastSignedTransaction({ client: publicClient, serialized });
        await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
        return hash;
      }
      const prepared = await prepareTokenTransfer({
        client: publicClient,
        account: deployment.shoppers[index]!.privateKey,
        token,
        to,
        amount,
        gas: 100_000n,
      });
      await broadcastSignedTransaction({ client: publicClient, serialized: prepared.serialized });
      await publicClient.waitForTransactionReceipt({ hash: prepared.hash, timeout: 30_000 });
      return prepared.hash;
    },
    async swapExactOut(index, tokenIn, tokenOut, amountOut, to, reference) {
      const client = wallet(index);
      const { amountIn } = await quoteExactOutput({
        client: publicClient,
        router: deployment.router,
        path: [tokenIn, tokenOut],
        amountOut,
      });
      const max = withSlippage(amountIn, 50);
      const approve = await client.writeContract({
        address: tokenIn,
        abi: noReturn.has(tokenIn.toLowerCase()) ? erc20NoReturnAbi : erc20Abi,
        functionName: 'approve',
        args: [deployment.router, max],
      });
      await publicClient.waitForTransactionReceipt({ hash: approve, timeout: 30_000 });
      const hash = await swapTokensForExactTokens(client, {
        router: deployment.router,
        path: [tokenIn, tokenOut],
        amountOut,
        amountInMax: max,
        to,
        ...(reference ? { dataSuffix: reference as Hex } : {}),
      });
      await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 });
      return hash;
    },
    async mine(blocks) {
      await publicClient.request({
        method: 'hardhat_mine' as 'eth_chainId',
        params: [`0x${blocks.toString(16)}`] as unknown as undefined,
      });
    },
    stop: () => chain.stop(),
  };
}

import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hash,
  http,
  keccak256,
  maxUint256,
  type PublicClient,
  parseUnits,
  slice,
  type TestClient,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapDevChain,
  type DevAccount,
  type DevChain,
  type DevDeployment,
  defineDevChain,
  devAccounts,
  erc20Abi,
  findIncomingTransfer,
  quoteExactOutput,
  startDevChain,
  swapTokensForExactTokens,
  withSlippage,
} from './index.ts';

let chain: DevChain;
let deployment: DevDeployment;
let reader: PublicClient;
let testClient: TestClient;

function freshAddress(label: string): Address {
  return getAddress(slice(keccak256(toHex(`findIncomingTransfer ${label}`)), 12));
}

function walletOf(account: DevAccount) {
  return createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }),
    transport: http(chain.rpcUrl),
  });
}

async function mined(hash: Hash) {
  return reader.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
}

async function payBusd(payer: DevAccount, to: Address, amount: bigint) {
  const hash = await walletOf(payer).writeContract({
    address: deployment.tokens.BUSD.address,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  });
  return mined(hash);
}

async function swapDaiForBusd(payer: DevAccount, to: Address, amountOut: bigint) {
  const wallet = walletOf(payer);
  const { BUSD: busd, DAI: dai } = deployment.tokens;
  const path = [dai.address, busd.address] as const;
  await mined(
    await wallet.writeContract({
      address: dai.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [deployment.router, maxUint256],
    }),
  );
  const quote = await quoteExactOutput({ client: reader, router: deployment.router, path, amountOut });
  const hash = await swapTokensForExactTokens(wallet, {
    router: deployment.router,
    path,
    amountOut,
    amountInMax: withSlippage(quote.amountIn, 50),
    to,
  });
  return mined(hash);
}

async function nextBlock(): Promise<bigint> {
  return (await reader.getBlockNumber({ cacheTime: 0 })) + 1n;
}

beforeAll(async () => {
  chain = await startDevChain();
  const devChain = defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl });
  reader = createPublicClient({ chain: devChain, transport: http(chain.rpcUrl) });
  testClient = createTestClient({ mode: 'hardhat', chain: devChain, transport: http(chain.rpcUrl) });
  deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
});

afterAll(async () => {
  await chain?.stop();
});

describe('findIncomingTransfer', () => {
  it("finds a direct transfer from the payer, skipping other senders' transfers", async () => {
    const [other, shopper] = deployment.shoppers as [DevAccount, DevAccount];
    const merchant = freshAddress('direct');
    const busd = deployment.tokens.BUSD.address;
    const fromBlock = await nextBlock();
    const noise = await payBusd(other, merchant, parseUnits('1', 18));
    const payment = await payBusd(shopper, merchant, parseUnits('10', 18));

    const found = await findIncomingTransfer({
      client: reader,
      token: busd,
      to: merchant,
      from: shopper.address,
      fromBlock,
    });
    expect(found).toEqual({
      txHash: payment.transactionHash,
      logIndex: 0,
      blockNumber: payment.blockNumber,
      blockHash: payment.blockHash,
      from: shopper.address,
      amount: parseUnits('10', 18),
    });
    // Without a payer the first transfer in wins; a minimum amount skips the small one.
    expect(
      (await findIncomingTransfer({ client: reader, token: busd, to: merchant, fromBlock }))?.txHash,
    ).toBe(noise.transactionHash);
    expect(
      (
        await findIncomingTransfer({
          client: reader,
          token: busd,
          to: merchant,
          fromBlock,
          minAmount: parseUnits('5', 18),
        })
      )?.txHash,
    ).toBe(payment.transactionHash);
  });

  it('finds a swap-delivered transfer given only the payer, token and receiving address', async () => {
    const shopper = deployment.shoppers[2]!;
    const merchant = freshAddress('swap');
    const fromBlock = await nextBlock();
    const swap = await swapDaiForBusd(shopper, merchant, parseUnits('25', 18));

    const found = await findIncomingTransfer({
      client: reader,
      token: deployment.tokens.BUSD.address,
      to: merchant,
      from: shopper.address,
      fromBlock,
    });
    expect(found).toMatchObject({
      txHash: swap.transactionHash,
      blockNumber: swap.blockNumber,
      // The log's sender is the pool; the payer matched through the transaction's sender.
      from: deployment.pairs['BUSD/DAI'],
      amount: parseUnits('25', 18),
    });
  });

  it('returns undefined for a payer who did not pay, another token, or a range before the payment', async () => {
    const shopper = deployment.shoppers[3]!;
    const merchant = freshAddress('absent');
    const fromBlock = await nextBlock();
    const payment = await payBusd(shopper, merchant, 1_000n);
    const base = { client: reader, token: deployment.tokens.BUSD.address, to: merchant, fromBlock };
    expect(await findIncomingTransfer({ ...base, from: devAccounts[8]!.address })).toBeUndefined();
    expect(await findIncomingTransfer({ ...base, token: deployment.tokens.DAI.address })).toBeUndefined();
    expect(await findIncomingTransfer({ ...base, toBlock: payment.blockNumber - 1n })).toBeUndefined();
    expect(await findIncomingTransfer({ ...base, fromBlock: payment.blockNumber + 1n })).toBeUndefined();
    expect(await findIncomingTransfer({ ...base, minAmount: 1_001n })).toBeUndefined();
  });

  it('scans in windows of at most maxBlockRange blocks and still finds the payment', async () => {
    const shopper = deployment.shoppers[4]!;
    const merchant = freshAddress('windows');
    const fromBlock = await nextBlock();
    await testClient.mine({ blocks: 7 });
    const payment = await payBusd(shopper, merchant, 42n);
    await testClient.mine({ blocks: 3 });

    const ranges: Array<[bigint, bigint]> = [];
    const counting = createPublicClient({
      transport: http(chain.rpcUrl, {
        onFetchRequest: async (request) => {
          const body = (await request.clone().json()) as {
            method: string;
            params: [{ fromBlock: string; toBlock: string }];
          };
          if (body.method === 'eth_getLogs') {
            ranges.push([BigInt(body.params[0].fromBlock), BigInt(body.params[0].toBlock)]);
          }
        },
      }),
    });
    const found = await findIncomingTransfer({
      client: counting,
      token: deployment.tokens.BUSD.address,
      to: merchant,
      from: shopper.address,
      fromBlock,
      maxBlockRange: 3,
    });
    expect(found?.txHash).toBe(payment.transactionHash);
    // Seven empty blocks, then the payment; three blocks per window, so the third window holds it.
    expect(ranges).toEqual([
      [fromBlock, fromBlock + 2n],
      [fromBlock + 3n, fromBlock + 5n],
      [fromBlock + 6n, fromBlock + 8n],
    ]);
    expect(payment.blockNumber).toBe(fromBlock + 7n);
  });

  it('refuses a bad window size and gives up at the time limit', async () => {
    const base = {
      client: reader,
      token: deployment.tokens.BUSD.address,
      to: freshAddress('limits'),
      fromBlock: 0n,
    };
    await expect(findIncomingTransfer({ ...base, maxBlockRange: 0 })).rejects.toThrow(RangeError);
    await expect(findIncomingTransfer({ ...base, maxBlockRange: 1.5 })).rejects.toThrow(RangeError);
    await expect(findIncomingTransfer({ ...base, maxBlockRange: 1, timeoutMs: 0 })).rejects.toThrow(
      /timed out/,
    );
  });
});

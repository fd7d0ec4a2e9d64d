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
  broadcastSignedTransaction,
  type DevAccount,
  type DevChain,
  type DevDeployment,
  type DevToken,
  defineDevChain,
  erc20Abi,
  erc20NoReturnAbi,
  prepareTokenTransfer,
  quoteExactOutput,
  startDevChain,
  swapTokensForExactTokens,
  type VerifyPaymentParameters,
  verifyPayment,
  withSlippage,
} from './index.ts';

let chain: DevChain;
let deployment: DevDeployment;
let reader: PublicClient;
let testClient: TestClient;

/** A receiving address no other test uses, so only this test's transfers reach it. */
function freshAddress(label: string): Address {
  return getAddress(slice(keccak256(toHex(`verifyPayment ${label}`)), 12));
}

function walletOf(account: DevAccount) {
  return createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }),
    transport: http(chain.rpcUrl),
  });
}

async function sendTransfer(payer: DevAccount, token: DevToken, to: Address, amount: bigint): Promise<Hash> {
  return walletOf(payer).writeContract({
    address: token.address,
    abi: token.noReturnTransfer ? erc20NoReturnAbi : erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  });
}

async function pay(payer: DevAccount, token: DevToken, to: Address, amount: bigint): Promise<Hash> {
  const hash = await sendTransfer(payer, token, to, amount);
  await reader.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
  return hash;
}

function verify(
  params: Omit<VerifyPaymentParameters, 'client' | 'tokens' | 'confirmations'> & {
    confirmations?: number;
  },
) {
  return verifyPayment({
    client: reader,
    tokens: Object.values(deployment.tokens),
    confirmations: 1,
    ...params,
  });
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

describe('verifyPayment', () => {
  it('confirms a direct transfer with the exact amount', async () => {
    const shopper = deployment.shoppers[0]!;
    const { BUSD: busd } = deployment.tokens;
    const merchant = freshAddress('direct');
    const amount = parseUnits('25', 18);
    const hash = await pay(shopper, busd, merchant, amount);
    const receipt = await reader.getTransactionReceipt({ hash });

    const result = await verify({
      txHash: hash,
      receivingAddress: merchant,
      expectedToken: busd.address,
      expectedAmount: amount,
    });
    expect(result).toEqual({
      status: 'confirmed',
      from: shopper.address,
      to: busd.address,
      input: (await reader.getTransaction({ hash })).input.slice(2),
      payer: shopper.address,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      confirmations: 1,
      transfers: [{ logIndex: 0, token: busd.address, from: shopper.address, to: merchant, amount }],
      receivedToken: busd.address,
      receivedAmount: amount,
      logIndex: 0,
      swapped: false,
      amountDifference: '0.0',
    });
  });

  it('reports under- and over-payment as signed percentages', async () => {
    const shopper = deployment.shoppers[0]!;
    const { BUSD: busd } = deployment.tokens;
    const merchant = freshAddress('under-over');
    const expectedAmount = parseUnits('25', 18);
    const cases = [
      ['24.5', '-2.0'],
      ['25.5', '2.0'],
      ['24.999999999999999999', '0.0'],
      ['12.5', '-50.0'],
      ['25.0001', '0.0004'],
    ] as const;
    for (const [paid, difference] of cases) {
      const hash = await pay(shopper, busd, merchant, parseUnits(paid, 18));
      const result = await verify({
        txHash: hash,
        receivingAddress: merchant,
        expectedToken: busd.address,
        expectedAmount,
      });
      expect(result).toMatchObject({
        status: 'confirmed',
        receivedAmount: parseUnits(paid, 18),
        amountDifference: difference,
        swapped: false,
      });
    }
  });

  it('matches the receiving address case-insensitively', async () => {
    const shopper = deployment.shoppers[0]!;
    const { USDC: usdc } = deployment.tokens;
    const merchant = freshAddress('lowercase');
    const hash = await pay(shopper, usdc, merchant, 25_000_000n);
    const result = await verify({
      txHash: hash,
      receivingAddress: merchant.toLowerCase() as Address,
      expectedToken: usdc.address,
      expectedAmount: 25_000_000n,
    });
    expect(result).toMatchObject({
      status: 'confirmed',
      receivedAmount: 25_000_000n,
      amountDifference: '0.0',
    });
    if (result.status !== 'confirmed') throw new Error('unreachable');
    // Addresses come back checksummed whatever the case of the input.
    expect(result.transfers[0]?.to).toBe(merchant);
  });

  it('confirms a USDT-style (no return value) transfer', async () => {
    const shopper = deployment.shoppers[1]!;
    const { USDT: usdt } = deployment.tokens;
    const merchant = freshAddress('usdt');
    const hash = await pay(shopper, usdt, merchant, 7_250_000n);
    const result = await verify({
      txHash: hash,
      receivingAddress: merchant,
      expectedToken: usdt.address,
      expectedAmount: 7_250_000n,
    });
    expect(result).toMatchObject({
      status: 'confirmed',
      from: shopper.address,
      receivedToken: usdt.address,
      receivedAmount: 7_250_000n,
      amountDifference: '0.0',
      swapped: false,
    });
  });

  it('confirms a swap with exact output as swapped, paid by the shopper', async () => {
    const shopper = deployment.shoppers[2]!;
    const wallet = walletOf(shopper);
    const { BUSD: busd, DAI: dai } = deployment.tokens;
    const merchant = freshAddress('swap');
    const amountOut = parseUnits('25', 18);
    const path = [dai.address, busd.address] as const;
    const approval = await wallet.writeContract({
      address: dai.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [deployment.router, maxUint256],
    });
    await reader.waitForTransactionReceipt({ hash: approval, pollingInterval: 20, timeout: 10_000 });
    const quote = await quoteExactOutput({ client: reader, router: deployment.router, path, amountOut });
    const hash = await swapTokensForExactTokens(wallet, {
      router: deployment.router,
      path,
      amountOut,
      amountInMax: withSlippage(quote.amountIn, 50),
      to: merchant,
    });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });

    const result = await verify({
      txHash: hash,
      receivingAddress: merchant,
      expectedToken: busd.address,
      expectedAmount: amountOut,
    });
    expect(result).toMatchObject({
      status: 'confirmed',
      from: shopper.address,
      to: deployment.router,
      // The pool sent the tokens; the payer is who paid the pool.
      payer: shopper.address,
      receivedToken: busd.address,
      receivedAmount: amountOut,
      swapped: true,
      amountDifference: '0.0',
    });
    if (result.status !== 'confirmed') throw new Error('unreachable');
    // The merchant-side Transfer is the pool's; the shopper's DAI went into the pool first (log 0).
    expect(result.transfers).toEqual([
      {
        logIndex: 1,
        token: busd.address,
        from: deployment.pairs['BUSD/DAI'],
        to: merchant,
        amount: amountOut,
      },
    ]);
    expect(result.logIndex).toBe(1);
  });

  it('reports another accepted token than the expected one, compared at 1:1 across decimals', async () => {
    const shopper = deployment.shoppers[3]!;
    const { USDC: usdc, DAI: dai } = deployment.tokens;
    const merchant = freshAddress('other token');
    const hash = await pay(shopper, dai, merchant, parseUnits('24.75', 18));
    const result = await verify({
      txHash: hash,
      receivingAddress: merchant,
      expectedToken: usdc.address,
      expectedAmount: 25_000_000n,
    });
    expect(result).toMatchObject({
      status: 'confirmed',
      receivedToken: dai.address,
      receivedAmount: parseUnits('24.75', 18),
      amountDifference: '-1.0',
      swapped: false,
    });
  });

  it('reports a mined, reverted transaction as reverted', async () => {
    const shopper = deployment.shoppers[4]!;
    const { BUSD: busd } = deployment.tokens;
    const merchant = freshAddress('reverted');
    // More than the shopper holds, with a fixed gas limit so the node mines it instead of refusing an estimate.
    const prepared = await prepareTokenTransfer({
      client: reader,
      account: shopper.privateKey,
      token: busd.address,
      to: merchant,
      amount: parseUnits('1000000', 18),
      gas: 100_000n,
    });
    await broadcastSignedTransaction({ client: reader, serialized: prepared.serialized });
    const receipt = await reader.getTransactionReceipt({ hash: prepared.hash });
    expect(receipt.status).toBe('reverted');

    const result = await verify({
      txHash: prepared.hash,
      receivingAddress: merchant,
      expectedToken: busd.address,
      expectedAmount: parseUnits('1000000', 18),
    });
    expect(result).toEqual({
      status: 'reverted',
      from: shopper.address,
      to: busd.address,
      input: expect.stringMatching(/^a9059cbb[0-9a-f]{128}$/),
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      confirmations: 1,
    });
  });

  it('reports a transfer to someone else as no_transfer', async () => {
    const shopper = deployment.shoppers[0]!;
    const { BUSD: busd } = deployment.tokens;
    const hash = await pay(shopper, busd, freshAddress('someone else'), parseUnits('25', 18));
    const result = await verify({
      txHash: hash,
      receivingAddress: freshAddress('merchant of no_transfer'),
      expectedToken: busd.address,
      expectedAmount: parseUnits('25', 18),
    });
    expect(result).toMatchObject({ status: 'no_transfer', from: shopper.address, to: busd.address });
  });

  it('reports an unknown hash as not_found', async () => {
    const result = await verify({
      txHash: keccak256(toHex('never sent')),
      receivingAddress: freshAddress('not found'),
      expectedToken: deployment.tokens.BUSD.address,
      expectedAmount: 1n,
    });
    expect(result).toEqual({ status: 'not_found' });
  });

  it('counts confirmations, the block itself as one, until the required number is reached', async () => {
    const shopper = deployment.shoppers[0]!;
    const { BUSD: busd } = deployment.tokens;
    const merchant = freshAddress('confirmations');
    const amount = parseUnits('3', 18);
    const hash = await pay(shopper, busd, merchant, amount);
    const params = {
      txHash: hash,
      receivingAddress: merchant,
      expectedToken: busd.address,
      expectedAmount: amount,
      confirmations: 3,
    };
    expect(await verify(params)).toEqual({ status: 'pending', confirmations: 1 });
    await testClient.mine({ blocks: 1 });
    expect(await verify(params)).toEqual({ status: 'pending', confirmations: 2 });
    await testClient.mine({ blocks: 1 });
    expect(await verify(params)).toMatchObject({
      status: 'confirmed',
      confirmations: 3,
      receivedAmount: amount,
    });
    await testClient.mine({ blocks: 5 });
    expect(await verify(params)).toMatchObject({ status: 'confirmed', confirmations: 8 });
  });

  it('reports a transaction waiting in the pool as pending with 0 confirmations', async () => {
    const shopper = deployment.shoppers[0]!;
    const { BUSD: busd } = deployment.tokens;
    const merchant = freshAddress('pool');
    await testClient.setAutomine(false);
    try {
      const hash = await sendTransfer(shopper, busd, merchant, 1n);
      const params = {
        txHash: hash,
        receivingAddress: merchant,
        expectedToken: busd.address,
        expectedAmount: 1n,
      };
      expect(await verify(params)).toEqual({ status: 'pending', confirmations: 0 });
      await testClient.mine({ blocks: 1 });
      expect(await verify(params)).toMatchObject({ status: 'confirmed', confirmations: 1 });
    } finally {
      await testClient.setAutomine(true);
    }
  });

  it('detects a reorganisation from the block hash seen before', async () => {
    const shopper = deployment.shoppers[1]!;
    const { BUSD: busd } = deployment.tokens;
    const merchant = freshAddress('reorg');
    const { serialized } = await prepareTokenTransfer({
      client: reader,
      account: shopper.privateKey,
      token: busd.address,
      to: merchant,
      amount: 5n,
    });
    const snapshot = await testClient.snapshot();
    const hash = await reader.sendRawTransaction({ serializedTransaction: serialized });
    const params = {
      txHash: hash,
      receivingAddress: merchant,
      expectedToken: busd.address,
      expectedAmount: 5n,
    };
    const seen = await verify(params);
    if (seen.status !== 'confirmed') throw new Error(`expected confirmed, got ${seen.status}`);

    // The block holding the payment is replaced by an empty one.
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 1 });
    expect(await verify({ ...params, knownBlockHash: seen.blockHash })).toEqual({
      status: 'reorged',
      knownBlockHash: seen.blockHash,
    });
    expect(await verify(params)).toEqual({ status: 'not_found' });

    // The same signed payment lands again, in another block.
    await reader.sendRawTransaction({ serializedTransaction: serialized });
    const again = await verify({ ...params, knownBlockHash: seen.blockHash });
    expect(again).toMatchObject({ status: 'reorged', knownBlockHash: seen.blockHash });
    if (again.status !== 'reorged') throw new Error('unreachable');
    expect(again.blockHash).toBeDefined();
    expect(again.blockHash).not.toBe(seen.blockHash);
    expect(await verify({ ...params, knownBlockHash: again.blockHash! })).toMatchObject({
      status: 'confirmed',
      blockHash: again.blockHash,
      receivedAmount: 5n,
    });
  });

  it('refuses an expected token outside the accepted list, a non-positive amount or a malformed hash', async () => {
    const base = {
      txHash: keccak256(toHex('x')),
      receivingAddress: freshAddress('refusals'),
      expectedToken: deployment.tokens.BUSD.address,
      expectedAmount: 1n,
    };
    await expect(verify({ ...base, expectedToken: freshAddress('not a token') })).rejects.toThrow(RangeError);
    await expect(verify({ ...base, expectedAmount: 0n })).rejects.toThrow(RangeError);
    await expect(verify({ ...base, confirmations: -1 })).rejects.toThrow(RangeError);
    await expect(verify({ ...base, txHash: '0x1234' })).rejects.toThrow(TypeError);
  });
});

import {
  type Address,
  createPublicClient,
  createTestClient,
  decodeFunctionData,
  getAddress,
  http,
  keccak256,
  type PublicClient,
  parseTransaction,
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
  type DevChain,
  type DevDeployment,
  defineDevChain,
  erc20Abi,
  getTransactionState,
  prepareTokenTransfer,
  startDevChain,
} from './index.ts';

let chain: DevChain;
let deployment: DevDeployment;
let reader: PublicClient;
let testClient: TestClient;

function freshAddress(label: string): Address {
  return getAddress(slice(keccak256(toHex(`sendToken ${label}`)), 12));
}

function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

function nonceOf(address: Address): Promise<number> {
  return reader.getTransactionCount({ address, blockTag: 'pending' });
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

describe('treasury sends', () => {
  it('signs without broadcasting, then broadcasts the recorded hash and it is mined', async () => {
    const treasury = deployment.deployer;
    const { USDC: usdc } = deployment.tokens;
    const recipient = freshAddress('prepare');
    const amount = parseUnits('123.456789', 6);
    const nonceBefore = await nonceOf(treasury.address);

    const prepared = await prepareTokenTransfer({
      client: reader,
      account: treasury.privateKey,
      token: usdc.address,
      to: recipient,
      amount,
    });
    expect(prepared).toMatchObject({ nonce: nonceBefore, from: treasury.address, chainId: chain.chainId });
    expect(prepared.hash).toBe(keccak256(prepared.serialized));
    const parsed = parseTransaction(prepared.serialized);
    expect(parsed).toMatchObject({ chainId: chain.chainId, nonce: nonceBefore, type: 'eip1559' });
    expect(parsed.to && getAddress(parsed.to)).toBe(usdc.address);
    expect(decodeFunctionData({ abi: erc20Abi, data: parsed.data ?? '0x' })).toEqual({
      functionName: 'transfer',
      args: [recipient, amount],
    });

    // Nothing has left yet: the caller can store the hash first.
    const recorded = prepared.hash;
    expect(await getTransactionState({ client: reader, hash: recorded })).toBe('unknown');
    expect(await nonceOf(treasury.address)).toBe(nonceBefore);
    expect(await balanceOf(usdc.address, recipient)).toBe(0n);

    expect(await broadcastSignedTransaction({ client: reader, serialized: prepared.serialized })).toBe(
      recorded,
    );
    await reader.waitForTransactionReceipt({ hash: recorded, pollingInterval: 20, timeout: 10_000 });
    expect(await getTransactionState({ client: reader, hash: recorded })).toBe('mined');
    expect(await balanceOf(usdc.address, recipient)).toBe(amount);
  });

  it('broadcasting the same signed transaction again is harmless: the recipient is paid once', async () => {
    const treasury = deployment.deployer;
    const { BUSD: busd } = deployment.tokens;
    const recipient = freshAddress('twice');
    const amount = parseUnits('50', 18);
    const prepared = await prepareTokenTransfer({
      client: reader,
      account: privateKeyToAccount(treasury.privateKey),
      token: busd.address,
      to: recipient,
      amount,
    });
    const broadcast = () => broadcastSignedTransaction({ client: reader, serialized: prepared.serialized });

    // Twice while it waits in the pool ("known transaction"), then again once mined ("nonce too low").
    await testClient.setAutomine(false);
    try {
      expect(await broadcast()).toBe(prepared.hash);
      expect(await broadcast()).toBe(prepared.hash);
      expect(await getTransactionState({ client: reader, hash: prepared.hash })).toBe('pending');
      await testClient.mine({ blocks: 1 });
    } finally {
      await testClient.setAutomine(true);
    }
    expect(await getTransactionState({ client: reader, hash: prepared.hash })).toBe('mined');
    expect(await broadcast()).toBe(prepared.hash);
    expect(await broadcast()).toBe(prepared.hash);
    await testClient.mine({ blocks: 2 });
    expect(await balanceOf(busd.address, recipient)).toBe(amount);
    expect(await nonceOf(treasury.address)).toBe(prepared.nonce + 1);
  });

  it('sends a USDT-style token whose transfer returns nothing', async () => {
    const { USDT: usdt } = deployment.tokens;
    const recipient = freshAddress('usdt');
    const amount = parseUnits('7.25', 6);
    const prepared = await prepareTokenTransfer({
      client: reader,
      account: deployment.deployer.privateKey,
      token: usdt.address,
      to: recipient,
      amount,
      noReturnTransfer: true,
    });
    await broadcastSignedTransaction({ client: reader, serialized: prepared.serialized });
    expect(await getTransactionState({ client: reader, hash: prepared.hash })).toBe('mined');
    expect(await balanceOf(usdt.address, recipient)).toBe(amount);
  });

  it('reports a mined transfer that reverted', async () => {
    const poor = deployment.shoppers[0]!;
    const prepared = await prepareTokenTransfer({
      client: reader,
      account: poor.privateKey,
      token: deployment.tokens.DAI.address,
      to: freshAddress('reverted'),
      amount: parseUnits('1000000', 18),
      gas: 100_000n,
    });
    expect(await broadcastSignedTransaction({ client: reader, serialized: prepared.serialized })).toBe(
      prepared.hash,
    );
    expect(await getTransactionState({ client: reader, hash: prepared.hash })).toBe('reverted');
  });

  it('refuses to sign when the treasury cannot cover the transfer, or for another chain than the RPC serves', async () => {
    const base = {
      client: reader,
      account: deployment.shoppers[0]!.privateKey,
      token: deployment.tokens.DAI.address,
      to: freshAddress('refused'),
    };
    // Without a fixed gas limit the estimate fails instead of burning gas on a sure revert.
    await expect(prepareTokenTransfer({ ...base, amount: parseUnits('1000000', 18) })).rejects.toThrow(
      /balance too low/,
    );
    await expect(prepareTokenTransfer({ ...base, amount: 0n })).rejects.toThrow(RangeError);
    const elsewhere = createPublicClient({
      chain: defineDevChain({ chainId: 1, rpcUrl: chain.rpcUrl }),
      transport: http(chain.rpcUrl),
    });
    await expect(prepareTokenTransfer({ ...base, client: elsewhere, amount: 1n })).rejects.toThrow(
      /chain 97/,
    );
  });

  it('rethrows a refusal that is not about this transaction', async () => {
    // Signed for a nonce far ahead: the node rejects it and has nothing under its hash.
    const prepared = await prepareTokenTransfer({
      client: reader,
      account: deployment.shoppers[1]!.privateKey,
      token: deployment.tokens.BUSD.address,
      to: freshAddress('rejected'),
      amount: 1n,
      nonce: 1_000,
    });
    await expect(
      broadcastSignedTransaction({ client: reader, serialized: prepared.serialized }),
    ).rejects.toThrow();
    expect(await getTransactionState({ client: reader, hash: prepared.hash })).toBe('unknown');
  });
});

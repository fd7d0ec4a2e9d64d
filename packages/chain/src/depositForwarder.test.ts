import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapDevChain,
  type DevAccount,
  type DevChain,
  type DevDeployment,
  defineDevChain,
  deployAndSweepData,
  depositAddressOf,
  depositForwarderFactoryAbi,
  depositSalt,
  devAccounts,
  erc20Abi,
  erc20NoReturnAbi,
  type ForwarderSweep,
  loadArtifact,
  startDevChain,
} from './index.ts';

let chain: DevChain;
let deployment: DevDeployment;
let reader: PublicClient;

/** A receiving address with no tokens, other for each test so that balances start at zero. */
const freshMerchant = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const reference = (): Hex => privateKeyToAccount(generatePrivateKey()).address.padEnd(66, '0') as Hex;

function walletOf(account: DevAccount) {
  return createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }),
    transport: http(chain.rpcUrl),
  });
}

const balanceOf = (token: Address, owner: Address) =>
  reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

/** Sends `amount` of `token` from shopper #1 to `to`; the gas it used. */
async function pay(token: Address, to: Address, amount: bigint): Promise<bigint> {
  const noReturn = Object.values(deployment.tokens).find((t) => t.address === token)?.noReturnTransfer;
  const hash = await walletOf(deployment.shoppers[0]!).writeContract({
    address: token,
    abi: noReturn ? erc20NoReturnAbi : erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  });
  const receipt = await reader.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt.gasUsed;
}

/** Sends a `deployAndSweep` from `sender` (any account); the gas it used. */
async function sweep(
  sweeps: readonly ForwarderSweep[],
  sender: DevAccount = devAccounts[8]!,
): Promise<bigint> {
  const hash = await walletOf(sender).sendTransaction({
    to: deployment.depositFactory,
    data: deployAndSweepData(sweeps),
  });
  const receipt = await reader.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt.gasUsed;
}

beforeAll(async () => {
  chain = await startDevChain();
  deployment = await bootstrapDevChain({ rpcUrl: chain.rpcUrl });
  reader = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 20 }) as PublicClient;
}, 120_000);

afterAll(async () => {
  await chain?.stop();
});

describe('deposit forwarders', () => {
  it('are deployed at the address computed off-chain, which the factory computes alike', async () => {
    const destination = freshMerchant();
    const ref = reference();
    const address = await depositAddressOf({
      factory: deployment.depositFactory,
      destination,
      reference: ref,
    });
    const onChain = await reader.readContract({
      address: deployment.depositFactory,
      abi: depositForwarderFactoryAbi,
      functionName: 'forwarderAddress',
      args: [destination, depositSalt(ref)],
    });
    expect(onChain).toBe(address);
    expect(await reader.getCode({ address })).toBeUndefined();
    await sweep([{ destination, reference: ref, tokens: [] }]);
    expect(await reader.getCode({ address })).toMatch(/^0x[0-9a-f]+$/);
    const { abi } = await loadArtifact('DepositForwarder');
    expect(await reader.readContract({ address, abi, functionName: 'destination' })).toBe(destination);
  });

  it('sweep many forwarders and tokens in one transaction, sent by anyone, only to each destination', async () => {
    const { BUSD, USDT, USDC } = deployment.tokens;
    const [a, b] = [freshMerchant(), freshMerchant()];
    const [refA, refB] = [reference(), reference()];
    const factory = deployment.depositFactory;
    const depositA = await depositAddressOf({ factory, destination: a, reference: refA });
    const depositB = await depositAddressOf({ factory, destination: b, reference: refB });
    await pay(BUSD.address, depositA, 89_500_000_000_000_000_000n);
    await pay(USDT.address, depositA, 12_340_000n);
    await pay(USDC.address, depositB, 7_000_000n);
    // A stranger sweeps both: the funds reach each forwarder's destination and nobody else.
    const stranger = devAccounts[7]!;
    const strangerBefore = await balanceOf(BUSD.address, stranger.address);
    await sweep(
      [
        { destination: a, reference: refA, tokens: [BUSD.address, USDT.address] },
        { destination: b, reference: refB, tokens: [USDC.address, BUSD.address] },
      ],
      stranger,
    );
    expect(await balanceOf(BUSD.address, a)).toBe(89_500_000_000_000_000_000n);
    expect(await balanceOf(USDT.address, a)).toBe(12_340_000n);
    expect(await balanceOf(USDC.address, b)).toBe(7_000_000n);
    expect(await balanceOf(BUSD.address, b)).toBe(0n);
    expect(await balanceOf(BUSD.address, depositA)).toBe(0n);
    expect(await balanceOf(BUSD.address, stranger.address)).toBe(strangerBefore);
    // A second payment to a deployed forwarder is swept by the same call (the deploy is skipped).
    await pay(BUSD.address, depositA, 1_000_000_000_000_000_000n);
    await sweep([{ destination: a, reference: refA, tokens: [BUSD.address] }]);
    expect(await balanceOf(BUSD.address, a)).toBe(90_500_000_000_000_000_000n);
  });

  it('cannot be made to pay anyone but its destination: another destination under the same salt is another address', async () => {
    const { BUSD } = deployment.tokens;
    const merchant = freshMerchant();
    const thief = devAccounts[7]!.address;
    const ref = reference();
    const deposit = await depositAddressOf({
      factory: deployment.depositFactory,
      destination: merchant,
      reference: ref,
    });
    await pay(BUSD.address, deposit, 5_000_000_000_000_000_000n);
    const thiefBefore = await balanceOf(BUSD.address, thief);
    // The same salt with the thief as destination deploys a forwarder elsewhere, which holds nothing.
    await sweep([{ destination: thief, reference: ref, tokens: [BUSD.address] }]);
    expect(await balanceOf(BUSD.address, thief)).toBe(thiefBefore);
    expect(await balanceOf(BUSD.address, deposit)).toBe(5_000_000_000_000_000_000n);
    // Calling the forwarder's sweep directly also pays the merchant only.
    await sweep([{ destination: merchant, reference: ref, tokens: [] }]);
    const { abi } = await loadArtifact('DepositForwarder');
    const hash = await walletOf(devAccounts[7]!).writeContract({
      address: deposit,
      abi,
      functionName: 'sweep',
      args: [[BUSD.address]],
    });
    await reader.waitForTransactionReceipt({ hash });
    expect(await balanceOf(BUSD.address, merchant)).toBe(5_000_000_000_000_000_000n);
    expect(await balanceOf(BUSD.address, thief)).toBe(thiefBefore);
  });

  it('cost, measured: deploy and sweep against a plain transfer (docs/checkout.md, "Gas")', async () => {
    const { BUSD } = deployment.tokens;
    const plain = await pay(BUSD.address, freshMerchant(), 1n);
    const one = { destination: freshMerchant(), reference: reference(), tokens: [BUSD.address] };
    await pay(BUSD.address, await depositAddressOf({ factory: deployment.depositFactory, ...one }), 1n);
    const single = await sweep([one]);
    const batch: ForwarderSweep[] = [];
    for (let i = 0; i < 10; i++) {
      const s = { destination: freshMerchant(), reference: reference(), tokens: [BUSD.address] };
      await pay(BUSD.address, await depositAddressOf({ factory: deployment.depositFactory, ...s }), 1n);
      batch.push(s);
    }
    const ten = await sweep(batch);
    await pay(BUSD.address, await depositAddressOf({ factory: deployment.depositFactory, ...one }), 1n);
    const again = await sweep([one]);
    console.log(
      `gas: plain transfer ${plain}; deploy+sweep 1 forwarder ${single}; 10 in one call ${ten} (${ten / 10n} each); sweep of a deployed forwarder ${again}`,
    );
    expect(single).toBeLessThan(250_000n);
    expect(ten / 10n).toBeLessThan(single);
    expect(again).toBeLessThan(single);
  });
});

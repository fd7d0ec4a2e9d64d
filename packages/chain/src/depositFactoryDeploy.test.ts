/**
 * The factory's deployment on a real chain, against a fresh dev chain without the dev bootstrap: refused
 * while the chain has no deterministic deployment proxy, then deployed through it at the address computed
 * off-chain, and skipped when run again.
 */
import { createPublicClient, createWalletClient, type Hex, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DevChain,
  defineDevChain,
  deployDepositFactory,
  deterministicDeployer,
  deterministicDepositFactoryAddress,
  devAccounts,
  startDevChain,
} from './index.ts';

/** The proxy's own deployment: a transaction signed once for every chain (no chain id), from a keyless account. */
const proxySigner = '0x3fab184622dc19b6109349b94811493bf2a45362';
const proxyDeployment: Hex =
  '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222';

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ chainId: 56 });
}, 120_000);
afterAll(async () => {
  await chain?.stop();
});

it('deploys the factory through the deterministic deployment proxy once, at the address computed off-chain', async () => {
  const reader = createPublicClient({ transport: http(chain.rpcUrl) });
  const deployer = devAccounts[9]!;
  const options = { rpcUrl: chain.rpcUrl, privateKey: deployer.privateKey };
  await expect(deployDepositFactory(options)).rejects.toThrow(/no deterministic deployment proxy/);

  // The proxy, deployed as on any chain: its signer funded, its one transaction published.
  const funder = createWalletClient({
    account: privateKeyToAccount(devAccounts[8]!.privateKey),
    chain: defineDevChain({ chainId: chain.chainId, rpcUrl: chain.rpcUrl }),
    transport: http(chain.rpcUrl),
  });
  await reader.waitForTransactionReceipt({
    hash: await funder.sendTransaction({ to: proxySigner, value: parseEther('0.01') }),
  });
  await reader.waitForTransactionReceipt({
    hash: await reader.request({ method: 'eth_sendRawTransaction', params: [proxyDeployment] }),
  });
  expect(await reader.getCode({ address: deterministicDeployer })).not.toBeUndefined();

  const address = await deterministicDepositFactoryAddress();
  const first = await deployDepositFactory(options);
  expect(first).toMatchObject({ chainId: 56, address });
  expect(first.hash).toMatch(/^0x[0-9a-f]{64}$/);
  expect((await reader.getCode({ address }))?.length).toBeGreaterThan(2);

  const nonce = await reader.getTransactionCount({ address: deployer.address });
  const again = await deployDepositFactory(options);
  expect(again).toEqual({ chainId: 56, address });
  expect(await reader.getTransactionCount({ address: deployer.address })).toBe(nonce);
}, 120_000);

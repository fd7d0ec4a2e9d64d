/**
 * The deposit forwarders' factory on a real chain: `DepositForwarderFactory` deployed through the
 * deterministic deployment proxy (the CREATE2 deployer at the same address on most EVM chains), with a fixed
 * salt, so that it lands at one address on every chain where the proxy is, whoever deploys it.
 */
import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  getContractAddress,
  type Hex,
  http,
  zeroHash,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadArtifact } from './artifacts.ts';

/** The deterministic deployment proxy: `salt ‖ init code` sent to it is deployed with CREATE2. */
export const deterministicDeployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

/** The salt of the factory's CREATE2: zero, so that anyone deploying it finds the same address. */
const factorySalt: Hex = zeroHash;

/** Where the factory lands through the proxy: the same on every chain (its init code has no arguments). */
export async function deterministicDepositFactoryAddress(): Promise<Address> {
  const { bytecode } = await loadArtifact('DepositForwarderFactory');
  return getContractAddress({ opcode: 'CREATE2', from: deterministicDeployer, salt: factorySalt, bytecode });
}

/**
 * Deploys the factory at its deterministic address from `privateKey`'s account, unless code is there already
 * (then nothing is sent, and no key is needed). Fails when it must deploy without a key, when the chain has no
 * deterministic deployment proxy, or when the deployment leaves no code at the address.
 */
export async function deployDepositFactory(options: {
  rpcUrl: string;
  privateKey?: Hex | undefined;
}): Promise<{
  chainId: number;
  address: Address;
  /** The deployment's hash; undefined when the factory was there already. */
  hash?: Hex;
}> {
  const reader = createPublicClient({ transport: http(options.rpcUrl) });
  const chainId = await reader.getChainId();
  const address = await deterministicDepositFactoryAddress();
  const present = async (at: Address) => ((await reader.getCode({ address: at })) ?? '0x') !== '0x';
  if (await present(address)) return { chainId, address };
  if (!(await present(deterministicDeployer))) {
    throw new Error(
      `chain ${chainId} has no deterministic deployment proxy at ${deterministicDeployer}: deploy it first (github.com/Arachnid/deterministic-deployment-proxy)`,
    );
  }
  if (!options.privateKey)
    throw new Error(`no factory at ${address} on chain ${chainId}, and no key to deploy it`);
  const { bytecode } = await loadArtifact('DepositForwarderFactory');
  const wallet = createWalletClient({
    account: privateKeyToAccount(options.privateKey),
    transport: http(options.rpcUrl),
  });
  const hash = await wallet.sendTransaction({
    chain: null,
    to: deterministicDeployer,
    data: concat([factorySalt, bytecode]),
  });
  const receipt = await reader.waitForTransactionReceipt({ hash, timeout: 300_000 });
  if (receipt.status !== 'success' || !(await present(address))) {
    throw new Error(`the deployment ${hash} left no code at ${address}`);
  }
  return { chainId, address, hash };
}

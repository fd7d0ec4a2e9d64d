/**
 * Deployable contracts: this package's tokens and deposit forwarder (committed artifacts) and Uniswap V2
 * exactly as published on npm. The pair is never recompiled: Router02 embeds the keccak-256 of the
 * published pair creation code (`uniswapV2InitCodeHash`) to find pools, so any other build breaks it.
 * Artifacts are read on demand so that production code importing this package never needs them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';

/** ABI and creation bytecode of a deployable contract. */
export interface ContractArtifact {
  abi: Abi;
  bytecode: Hex;
}

/** Contracts the dev chain deploys (the deposit forwarder's factory is deployed on every chain using deposit addresses). */
export type DevContractName =
  | 'DepositForwarder'
  | 'DepositForwarderFactory'
  | 'TestToken'
  | 'NoReturnToken'
  | 'OwnedContractWallet'
  | 'OwnedContractWalletFactory'
  | 'WETH9'
  | 'UniswapV2Factory'
  | 'UniswapV2Pair'
  | 'UniswapV2Router02';

const npmArtifacts: Partial<Record<DevContractName, string>> = {
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
};

const cache = new Map<DevContractName, Promise<ContractArtifact>>();

/** Loads a contract's ABI and creation bytecode (once per process). */
export function loadArtifact(name: DevContractName): Promise<ContractArtifact> {
  const artifact = cache.get(name) ?? readArtifact(name);
  cache.set(name, artifact);
  return artifact;
}

async function readArtifact(name: DevContractName): Promise<ContractArtifact> {
  const npmPath = npmArtifacts[name];
  if (npmPath === undefined) {
    const file = new URL(`./artifacts/${name}.json`, import.meta.url);
    const { abi, bytecode } = JSON.parse(await readFile(file, 'utf8')) as ContractArtifact;
    return { abi, bytecode };
  }
  // Waffle-format build output: the creation code sits in `evm.bytecode.object` without a 0x prefix.
  const file = createRequire(import.meta.url).resolve(npmPath);
  const json = JSON.parse(await readFile(file, 'utf8')) as {
    abi: Abi;
    evm: { bytecode: { object: string } };
  };
  const object = json.evm.bytecode.object;
  if (object.length === 0) throw new Error(`${npmPath} holds no bytecode`);
  return { abi: json.abi, bytecode: object.startsWith('0x') ? (object as Hex) : `0x${object}` };
}

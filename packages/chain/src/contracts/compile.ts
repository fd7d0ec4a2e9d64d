/**
 * Offline compilation of the contracts (the dev chain's tokens, the deposit forwarder and its factory, and
 * an ERC-1271 contract wallet with its CREATE2 factory for tests) with the `solc` npm package, whose compiler is WebAssembly inside
 * the package: nothing is downloaded.
 */
import { readFile } from 'node:fs/promises';
import solc from 'solc';
import type { Abi, Hex } from 'viem';

/** The contracts compiled from `src/contracts/*.sol`; each file holds the contract of the same name. */
const contractNames = [
  'TestToken',
  'NoReturnToken',
  'DepositForwarder',
  'DepositForwarderFactory',
  'OwnedContractWallet',
  'OwnedContractWalletFactory',
] as const;

/** Sources the contracts import and that compile to nothing of their own: the tokens' base. */
const baseSources = ['DevToken'] as const;

/** Name of a contract compiled from this package's sources. */
type ContractName = (typeof contractNames)[number];

/** Compiler release the committed artifacts are built with; another release would change the bytecode. */
const solcVersion = '0.8.37';

/**
 * Compiler settings. `cancun` runs on every current node; dropping the metadata hash keeps the
 * bytecode independent of comments and file paths, so only code changes alter it.
 */
const compilerSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const;

/** A compiled contract as committed under `src/artifacts/`. */
export interface CompiledContract {
  contractName: ContractName;
  sourceName: string;
  compiler: { version: string; settings: typeof compilerSettings };
  abi: Abi;
  bytecode: Hex;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/** Compiles every contract in `contractNames` from its `.sol` file; throws on any compiler error. */
export async function compileContracts(): Promise<CompiledContract[]> {
  const version: string = solc.version();
  if (!version.startsWith(`${solcVersion}+`)) {
    throw new Error(`solc ${solcVersion} is required, found ${version}`);
  }
  const sources: Record<string, { content: string }> = {};
  for (const name of [...contractNames, ...baseSources]) {
    sources[`${name}.sol`] = { content: await readFile(new URL(`./${name}.sol`, import.meta.url), 'utf8') };
  }
  const input = { language: 'Solidity', sources, settings: compilerSettings };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));

  return contractNames.map((contractName) => {
    const sourceName = `${contractName}.sol`;
    const compiled = output.contracts?.[sourceName]?.[contractName];
    if (compiled === undefined) throw new Error(`solc produced no ${contractName} in ${sourceName}`);
    return {
      contractName,
      sourceName,
      compiler: { version, settings: compilerSettings },
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
    };
  });
}

/**
 * Deposit addresses of payerless checkout sessions: the CREATE2 address of a `DepositForwarder`
 * (src/contracts/DepositForwarder.sol) whose one destination, the product's receiving address, is in its
 * init code. The address is computed here before anything is deployed; `DepositForwarderFactory` deploys
 * and sweeps forwarders, many per transaction, and a sweep can only pay the destination.
 */
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  parseAbi,
} from 'viem';
import { loadArtifact } from './artifacts.ts';

/** The factory's writes and reads. */
export const depositForwarderFactoryAbi = parseAbi([
  'struct Sweep { address destination; bytes32 salt; address[] tokens; }',
  'function deployAndSweep(Sweep[] sweeps)',
  'function forwarderAddress(address destination, bytes32 salt) view returns (address)',
]);

/**
 * The CREATE2 salt of a session's forwarder: the keccak-256 of its reference. Not the reference itself, so
 * that a sweep's input never carries a session's reference (the sweep into the receiving address would
 * otherwise look like a second payment of that session).
 */
export function depositSalt(reference: Hex): Hex {
  return keccak256(reference);
}

/** The init code of the forwarder to `destination`: its creation code with the destination appended. */
async function forwarderInitCode(destination: Address): Promise<Hex> {
  const { bytecode } = await loadArtifact('DepositForwarder');
  return `${bytecode}${encodeAbiParameters([{ type: 'address' }], [destination]).slice(2)}`;
}

/** The deposit address of the session with `reference` whose payments go to `destination`, under `factory`. */
export async function depositAddressOf(params: {
  factory: Address;
  destination: Address;
  reference: Hex;
}): Promise<Address> {
  return getContractAddress({
    opcode: 'CREATE2',
    from: params.factory,
    salt: depositSalt(params.reference),
    bytecode: await forwarderInitCode(params.destination),
  });
}

/** One forwarder to deploy (when it is not yet) and sweep. */
export interface ForwarderSweep {
  destination: Address;
  reference: Hex;
  tokens: readonly Address[];
}

/** The input of a `deployAndSweep` of `sweeps`. */
export function deployAndSweepData(sweeps: readonly ForwarderSweep[]): Hex {
  return encodeFunctionData({
    abi: depositForwarderFactoryAbi,
    functionName: 'deployAndSweep',
    args: [
      sweeps.map((s) => ({
        destination: s.destination,
        salt: depositSalt(s.reference),
        tokens: [...s.tokens],
      })),
    ],
  });
}

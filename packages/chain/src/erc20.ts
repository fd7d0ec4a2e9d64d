/** ERC-20 ABIs for reading balances, sending payments and minting on the dev chain. */
import { erc20Abi } from 'viem';

/** Standard ERC-20 (reads, bool-returning writes, Transfer/Approval events). */
export { erc20Abi };

/**
 * Writes for USDT-style tokens, whose `transfer`, `transferFrom` and `approve` return nothing.
 * Simulating them with `erc20Abi` fails ("returned no data"), so simulate and write with this one.
 */
export const erc20NoReturnAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'transferFrom',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

/** The dev chain's tokens (`TestToken`, `NoReturnToken`) add an owner-only `mint` to ERC-20. */
export const devTokenMintAbi = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

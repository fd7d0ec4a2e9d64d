/** ERC-20 ABIs for reading balances, sending payments and minting on the dev chain. */
import { erc20Abi } from 'viem';

export { erc20NoReturnAbi } from '@checkout/core/erc20';
/** Standard ERC-20 (reads, bool-returning writes, Transfer/Approval events). */
export { erc20Abi };

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

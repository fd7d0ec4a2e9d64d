/** ERC-20 ABIs the service and the element's wallet module share (plain data: nothing else is bundled). */

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

/** ERC-20 ABIs the service and the element's wallet module share, as Solidity signatures for viem's `parseAbi`. */
import { parseAbi } from 'viem';

/**
 * Writes for USDT-style tokens, whose `transfer`, `transferFrom` and `approve` return nothing.
 * Simulating them with `erc20Abi` fails ("returned no data"), so simulate and write with this one.
 */
export const erc20NoReturnAbi = parseAbi([
  'function transfer(address to, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function approve(address spender, uint256 value)',
]);

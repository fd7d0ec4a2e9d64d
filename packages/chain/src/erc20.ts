/**
 * ERC-20 ABIs for reading balances, sending payments and minting on the dev chain, as Solidity signatures
 * that viem's `parseAbi` types and parses. Those the element's wallet module shares live in packages/core.
 */
import { erc20Abi, parseAbi } from 'viem';

export { erc20NoReturnAbi } from '@checkout/core/erc20';
/** Standard ERC-20 (reads, bool-returning writes, Transfer/Approval events). */
export { erc20Abi };

/** The dev chain's tokens (`TestToken`, `NoReturnToken`) add an owner-only `mint` to ERC-20. */
export const devTokenMintAbi = parseAbi(['function mint(address to, uint256 value) returns (bool)']);

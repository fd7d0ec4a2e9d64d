/**
 * The address a refund may go to: a real account, never the zero address, the token itself or the wallet
 * that pays, and a wallet rather than a contract unless the merchant says so.
 */
import type { ChainClients } from '@checkout/chain';
import { ApiError, recordInvalid } from '@checkout/core';
import { type Address, zeroAddress } from 'viem';

/** `address` lowercase, or a 422 naming `refund_address` when the refund could never arrive there. */
export function checkRefundAddress(
  refund: { token_address: string; from_address: string },
  address: string,
): string {
  const lower = address.toLowerCase();
  const refuse = (message: string) => recordInvalid([{ path: 'refund_address', message }]);
  if (lower === zeroAddress) throw refuse('is the zero address');
  if (lower === refund.token_address.toLowerCase()) throw refuse("is the token's contract");
  if (lower === refund.from_address.toLowerCase())
    throw refuse('is the receiving wallet that pays the refund');
  return lower;
}

/** The code an EIP-7702 delegation leaves on a wallet: `0xef0100` and the delegate's address. */
const delegationPattern = /^0xef0100[0-9a-f]{40}$/i;

/**
 * Refuses a refund address that has code on the chain — a contract, which may never pass the tokens on —
 * unless `allowContract` (the merchant's `allow_contract`); a wallet with an EIP-7702 delegation is a
 * wallet. A 503 when the chain cannot be asked.
 */
export async function refuseContractAddress(
  chains: ChainClients,
  input: { chainId: number; address: string; allowContract: boolean; hint: string },
): Promise<void> {
  if (input.allowContract) return;
  const client = chains.get(input.chainId)?.client;
  const code = client ? await client.getCode({ address: input.address as Address }).catch(() => null) : null;
  if (code === null) {
    throw new ApiError(
      'service_unavailable',
      `The chain ${input.chainId} cannot be reached to check the refund address; retry later`,
    );
  }
  if (code === undefined || code === '0x' || delegationPattern.test(code)) return;
  throw recordInvalid([{ path: 'refund_address', message: `is a contract, not a wallet: ${input.hint}` }]);
}

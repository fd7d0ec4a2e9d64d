/** The address a refund may go to: a real account, never the zero address, the token itself or the wallet that pays. */
import { recordInvalid } from '@checkout/core';
import { zeroAddress } from 'viem';

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

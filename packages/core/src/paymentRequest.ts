/**
 * Payment requests for wallets on another device: the EIP-681 URI a QR code carries, and the unique
 * amounts that let a transfer from an unknown sender find its checkout, and the referenced transfer a
 * wallet session sends.
 */
import { encodeFunctionData, type Hex } from 'viem';
import { erc20NoReturnAbi } from './erc20.ts';

/** The largest tail, in tail steps: a session's amount is its price plus 1 to this many steps. */
const maxAmountTail = 999n;

/**
 * One tail step of a token with `decimals` decimals, in base units: a millionth of a token (10^(decimals-6)),
 * or one base unit for tokens with fewer than 6 decimals. A whole tail stays below a thousandth of a token
 * — a tenth of a cent for a dollar stablecoin — and, being below the cent, never makes two prices'
 * amounts meet.
 */
function amountTailStep(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) throw new RangeError('bad decimals');
  return decimals > 6 ? 10n ** BigInt(decimals - 6) : 1n;
}

/**
 * Every amount a session of `price` base units may be given, as (amount, tail) pairs in a random order
 * (`random` returns numbers in [0, 1), like Math.random): the order spreads concurrent sessions over the
 * amounts, so they rarely try the same one.
 */
export function amountCandidates(
  price: bigint,
  decimals: number,
  random: () => number = Math.random,
): Array<{ amount: bigint; tail: bigint }> {
  if (price <= 0n) throw new RangeError('price must be positive');
  const step = amountTailStep(decimals);
  const tails: bigint[] = [];
  for (let t = 1n; t <= maxAmountTail; t++) tails.push(t * step);
  for (let i = tails.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [tails[i], tails[j]] = [tails[j]!, tails[i]!];
  }
  return tails.map((tail) => ({ amount: price + tail, tail }));
}

const addressPattern = /^0x[0-9a-fA-F]{40}$/;

/**
 * The EIP-681 URI asking a wallet for an ERC-20 `transfer`:
 * `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<amount>`, the amount in base units written
 * out in full (no exponent), so a wallet sends exactly that many.
 */
export function paymentUri(input: {
  tokenAddress: string;
  chainId: number;
  to: string;
  amount: bigint;
}): string {
  if (!addressPattern.test(input.tokenAddress)) throw new RangeError('tokenAddress must be an address');
  if (!addressPattern.test(input.to)) throw new RangeError('to must be an address');
  if (!Number.isSafeInteger(input.chainId) || input.chainId <= 0) throw new RangeError('bad chain id');
  if (input.amount <= 0n) throw new RangeError('amount must be positive');
  return `ethereum:${input.tokenAddress}@${input.chainId}/transfer?address=${input.to}&uint256=${input.amount}`;
}

/**
 * The calldata of a transfer paying a checkout session: the token's `transfer(to, amount)` followed by the
 * session's 32-byte reference, which the token ignores and the service finds in the transaction's input.
 */
export function referencedTransferData(input: { to: string; amount: bigint; reference: string }): Hex {
  if (!addressPattern.test(input.to)) throw new RangeError('to must be an address');
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(input.reference)) throw new RangeError('reference must be 32 bytes');
  const call = encodeFunctionData({
    abi: erc20NoReturnAbi,
    functionName: 'transfer',
    args: [input.to as Hex, input.amount],
  });
  return `${call}${input.reference.replace(/^0x/, '').toLowerCase()}`;
}

import { describe, expect, it } from 'vitest';
import { amountCandidates, paymentUri } from './paymentRequest.ts';

/** The smallest tail a session of a token with `decimals` decimals may be given: one tail step. */
function tailStep(decimals: number): bigint | undefined {
  const tails = amountCandidates(1n, decimals).map((c) => c.tail);
  return tails.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0];
}

const token = '0x55d398326f99059fF775485246999027B3197955';
const to = '0x1111111111111111111111111111111111111111';

describe('paymentUri', () => {
  it('builds an EIP-681 transfer of exact base units', () => {
    expect(paymentUri({ tokenAddress: token, chainId: 56, to, amount: 25_000137000000000000n })).toBe(
      `ethereum:${token}@56/transfer?address=${to}&uint256=25000137000000000000`,
    );
  });

  it('writes large amounts in full, never with an exponent', () => {
    const uri = paymentUri({ tokenAddress: token, chainId: 1, to, amount: 10n ** 30n + 1n });
    expect(uri.endsWith('uint256=1000000000000000000000000000001')).toBe(true);
  });

  it('refuses what a wallet could misread', () => {
    expect(() => paymentUri({ tokenAddress: 'usdt', chainId: 1, to, amount: 1n })).toThrow(RangeError);
    expect(() => paymentUri({ tokenAddress: token, chainId: 1, to: '0x12', amount: 1n })).toThrow(RangeError);
    expect(() => paymentUri({ tokenAddress: token, chainId: 0, to, amount: 1n })).toThrow(RangeError);
    expect(() => paymentUri({ tokenAddress: token, chainId: 1, to, amount: 0n })).toThrow(RangeError);
  });
});

describe('amount tails', () => {
  it('are millionths of a token, or base units below 6 decimals', () => {
    expect(tailStep(18)).toBe(10n ** 12n);
    expect(tailStep(6)).toBe(1n);
    expect(tailStep(2)).toBe(1n);
  });

  it('offer every tail once, above the price and below the next cent', () => {
    const price = 25_000000n;
    const candidates = amountCandidates(price, 6, () => 0.5);
    expect(candidates).toHaveLength(999);
    expect(new Set(candidates.map((c) => c.amount)).size).toBe(candidates.length);
    for (const { amount, tail } of candidates) {
      expect(amount).toBe(price + tail);
      expect(tail > 0n && tail < 10_000n).toBe(true);
    }
  });

  it('are shuffled by the random source', () => {
    const a = amountCandidates(1_000000n, 6, () => 0).map((c) => c.tail);
    const b = amountCandidates(1_000000n, 6, () => 0.999).map((c) => c.tail);
    expect(a).not.toEqual(b);
    expect([...a].sort((x, y) => (x < y ? -1 : 1))).toEqual([...b].sort((x, y) => (x < y ? -1 : 1)));
  });
});

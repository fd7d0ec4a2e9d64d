import { describe, expect, it } from 'vitest';
import { feeCents, fiatCentsForTokens, priceOfframp, tokenUnitsForFiat } from './ramps.ts';

const wire = { currency: 'usd', rail: 'wire', bps: 40n, fixedCents: 0n, minimumCents: 1000n };

describe('ramp pricing', () => {
  it('charges the fee rounded up to the cent, never below the minimum', () => {
    expect(feeCents(wire, 100_000n)).toBe(1000n); // 0.4 % of 1000.00 = 4.00 < minimum 10.00
    expect(feeCents(wire, 1_000_000n)).toBe(4000n);
    expect(feeCents({ ...wire, minimumCents: 0n }, 1n)).toBe(1n);
  });

  it('converts between cents and token units exactly, rounding in the service’s favour', () => {
    expect(tokenUnitsForFiat(100n, '1', 6)).toBe(1_000_000n);
    expect(tokenUnitsForFiat(100n, '0.92', 6)).toBe(1_086_957n); // 1.00 EUR at 0.92 EUR/USDC, rounded up
    expect(fiatCentsForTokens(1_086_957n, '0.92', 6)).toBe(100n);
    expect(fiatCentsForTokens(999_999n, '1', 6)).toBe(99n); // rounded down
  });

  it('prices a payout from the fiat side', () => {
    expect(priceOfframp({ fiatCents: 100_000n }, wire, '1', 6)).toEqual({
      fiatCents: 100_000n,
      feeCents: 1000n,
      tokenUnits: 1_010_000_000n,
    });
  });

  it('prices a payout from the token side: the largest fiat amount the tokens cover after the fee', () => {
    const price = priceOfframp({ tokenUnits: 1_010_000_000n }, wire, '1', 6);
    expect(price).toEqual({ fiatCents: 100_000n, feeCents: 1000n, tokenUnits: 1_010_000_000n });
    const short = priceOfframp({ tokenUnits: 1_009_999_999n }, wire, '1', 6);
    expect(short.fiatCents).toBe(99_999n);
    expect(short.tokenUnits).toBeLessThanOrEqual(1_009_999_999n);
    expect(priceOfframp({ tokenUnits: 5_000_000n }, wire, '1', 6).fiatCents).toBe(0n); // fee eats it all
  });
});

import { describe, expect, it } from 'vitest';
import { formatUnits, normalizeDecimal, parseUnits, percentDifference } from './amount.ts';

describe('parseUnits / formatUnits', () => {
  it('parses exact decimals into base units', () => {
    expect(parseUnits('25', 6)).toBe(25_000_000n);
    expect(parseUnits('25.5', 18)).toBe(25_500_000_000_000_000_000n);
    expect(parseUnits('0.000001', 6)).toBe(1n);
    expect(parseUnits('1.10', 1)).toBe(11n);
  });

  it('refuses malformed strings and excess precision instead of rounding', () => {
    for (const bad of ['', '.5', '1.', '-1', '1e3', '01', ' 1', 'abc', '1.2.3']) {
      expect(() => parseUnits(bad, 6), bad).toThrow(RangeError);
    }
    expect(() => parseUnits('0.0000001', 6)).toThrow(/more than 6 decimals/);
  });

  it('formats without trailing zeros, padding to a minimum when asked', () => {
    expect(formatUnits(25_000_000n, 6)).toBe('25');
    expect(formatUnits(25_081_496_051_043_854_244n, 18)).toBe('25.081496051043854244');
    expect(formatUnits(2500n, 2, 2)).toBe('25.00');
    expect(formatUnits(-15n, 1)).toBe('-1.5');
    expect(normalizeDecimal('7.50')).toBe('7.5');
  });

  it('round-trips amounts too large for a float', () => {
    const big = '123456789012345678901234567890.123456789012345678';
    expect(formatUnits(parseUnits(big, 18), 18)).toBe(big);
  });
});

describe('percentDifference', () => {
  it('is 0.0 for an exact payment', () => {
    expect(percentDifference(25_000_000n, 25_000_000n)).toBe('0.0');
  });
  it('is signed: positive for over-, negative for under-payment', () => {
    expect(percentDifference(100n, 101n)).toBe('1.0');
    expect(percentDifference(100n, 98n)).toBe('-2.0');
    expect(percentDifference(3n, 4n)).toBe('33.3333');
    expect(percentDifference(3n, 2n)).toBe('-33.3333');
  });
  it('refuses a zero expected amount', () => {
    expect(() => percentDifference(0n, 1n)).toThrow(RangeError);
  });
});

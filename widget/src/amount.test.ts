import { describe, expect, it } from 'vitest';
import { dollarAmountProblem, formatToken, fromUnits, includedTaxCents, toUnits } from './amount.ts';

describe('amounts', () => {
  it('validates USD amounts: greater than 0, at most 2 decimals', () => {
    expect(dollarAmountProblem('')).toBe('required');
    expect(dollarAmountProblem('0')).toBe('positive');
    expect(dollarAmountProblem('0.00')).toBe('positive');
    expect(dollarAmountProblem('1.234')).toBe('format');
    expect(dollarAmountProblem('-1')).toBe('format');
    expect(dollarAmountProblem('1e3')).toBe('format');
    expect(dollarAmountProblem('7.5')).toBeNull();
  });

  it('computes included tax exactly in cents', () => {
    expect(includedTaxCents(2500n, 20)).toBe(417n);
    expect(includedTaxCents(10000n, 7.5)).toBe(698n);
    expect(includedTaxCents(1n, 0)).toBe(0n);
  });

  it('converts decimal strings to units and back', () => {
    expect(toUnits('12.34', 18)).toBe(12_340_000_000_000_000_000n);
    expect(fromUnits(12_340_000_000_000_000_000n, 18)).toBe('12.34');
    expect(fromUnits(417n, 2)).toBe('4.17');
    expect(formatToken('1234.5', 'USDC', 'de-DE')).toBe('1.234,5 USDC');
  });
});

import { describe, expect, it } from 'vitest';
import { deadlineIn, withSlippage } from './uniswapV2Router.ts';

describe('withSlippage', () => {
  it('adds basis points and rounds up', () => {
    expect(withSlippage(10_000n, 50)).toBe(10_050n);
    expect(withSlippage(1n, 50)).toBe(2n);
    expect(withSlippage(25_075_225_677_031_093_280n, 50)).toBe(25_200_601_805_416_248_747n);
    expect(withSlippage(123n, 0)).toBe(123n);
    expect(withSlippage(0n, 100)).toBe(0n);
    expect(withSlippage(7n, 10_000n)).toBe(14n);
  });

  it('refuses fractional, negative or over-100 % tolerances', () => {
    expect(() => withSlippage(1n, 0.5)).toThrow(RangeError);
    expect(() => withSlippage(1n, -1)).toThrow(RangeError);
    expect(() => withSlippage(1n, 10_001)).toThrow(RangeError);
    expect(() => withSlippage(-1n, 1)).toThrow(RangeError);
  });
});

describe('deadlineIn', () => {
  it('counts seconds from now in unix time', () => {
    expect(deadlineIn(1200, new Date('2030-01-01T00:00:00Z'))).toBe(1_893_457_200n);
  });
});

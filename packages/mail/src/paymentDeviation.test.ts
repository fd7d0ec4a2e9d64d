import { describe, expect, it } from 'vitest';
import { paymentDeviation } from './paymentDeviation.ts';

describe('paymentDeviation', () => {
  it('is within tolerance up to and including 1.0 either way', () => {
    for (const value of ['0.0', '0', '-0.0', '1.0', '-1.0', '1', '0.9999', '-1.0000', '+1.00']) {
      expect(paymentDeviation(value)).toBeUndefined();
    }
  });

  it('flags anything beyond 1.0, compared on the string', () => {
    expect(paymentDeviation('1.0001')).toBe('over');
    expect(paymentDeviation('3.0')).toBe('over');
    expect(paymentDeviation('-2.0')).toBe('under');
    expect(paymentDeviation('-1.00000000000000000001')).toBe('under');
    expect(paymentDeviation('-100.0')).toBe('under');
  });

  it('says nothing about a value that is no decimal', () => {
    expect(paymentDeviation('')).toBeUndefined();
    expect(paymentDeviation('NaN')).toBeUndefined();
    expect(paymentDeviation('1e3')).toBeUndefined();
  });
});

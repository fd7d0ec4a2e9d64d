import { describe, expect, it } from 'vitest';
import { includedTax } from './includedTax.ts';

describe('includedTax', () => {
  it('takes the tax out of a tax-inclusive price', () => {
    expect(includedTax('100.00', '20')).toBe('16.67');
    expect(includedTax('10.00', '8.25')).toBe('0.76');
    expect(includedTax('120', '20')).toBe('20.00');
    expect(includedTax('119.00', '19.0000')).toBe('19.00');
  });

  it('is 0.00 at a 0 % rate and for a zero amount', () => {
    expect(includedTax('25.00', '0')).toBe('0.00');
    expect(includedTax('25.00', '0.0000')).toBe('0.00');
    expect(includedTax('0', '20')).toBe('0.00');
  });

  it('rounds half up to the cent', () => {
    // At 100 % the tax is half the amount: exactly on the half cent.
    expect(includedTax('0.01', '100')).toBe('0.01');
    expect(includedTax('0.03', '100')).toBe('0.02');
    expect(includedTax('1.05', '100')).toBe('0.53');
    // Just below the half cent rounds down.
    expect(includedTax('0.0099', '100')).toBe('0.00');
    expect(includedTax('0.0101', '100')).toBe('0.01');
  });

  it('stays exact for amounts beyond float precision', () => {
    expect(includedTax('123456789012.34', '20')).toBe('20576131502.06');
    expect(includedTax('123456789012.34', '8.25')).toBe('9408946968.61');
    expect(includedTax('99999999999999999999.99', '100')).toBe('50000000000000000000.00');
  });

  it('refuses what is not a non-negative decimal string', () => {
    expect(() => includedTax('-1.00', '20')).toThrow(RangeError);
    expect(() => includedTax('1,00', '20')).toThrow(RangeError);
    expect(() => includedTax('10.00', '')).toThrow(RangeError);
    expect(() => includedTax('10.00', '1e2')).toThrow(RangeError);
  });
});

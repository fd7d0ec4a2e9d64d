import { describe, expect, it } from 'vitest';
import { formatDecimalIn, formatUsdIn } from './localeAmount.ts';

const nbsp = '\u00a0';

describe('formatUsdIn', () => {
  // The element's figures (widget/src/amount.ts formatUsd): Intl's USD currency format of the locale.
  it.each([
    ['7.77', 'en', '$7.77'],
    ['7.77', 'es', `7,77${nbsp}US$`],
    ['7.77', 'pt-BR', `US$${nbsp}7,77`],
    ['25', 'es', `25,00${nbsp}US$`],
    ['7.5', 'pt', `US$${nbsp}7,50`],
    ['7.779', 'en', '$7.77'],
  ])('writes %s in %s as %s', (value, locale, expected) => {
    expect(formatUsdIn(value, locale)).toBe(expected);
  });

  it('stays exact beyond what a float holds', () => {
    expect(formatUsdIn('123456789012345678901.23', 'es')).toBe(`123.456.789.012.345.678.901,23${nbsp}US$`);
  });

  it('shows text that is no amount as it is', () => {
    expect(formatUsdIn('n/a', 'es')).toBe('n/a');
  });
});

describe('formatDecimalIn', () => {
  // The element's token amounts (widget/src/amount.ts formatToken, without the symbol): every digit kept.
  it.each([
    ['0.5', 'es', '0,5'],
    ['1234.5', 'es', '1234,5'],
    ['12345.678901', 'es', '12.345,678901'],
    ['12345.678901', 'en', '12,345.678901'],
    ['12345.678901', 'pt-BR', '12.345,678901'],
    ['100', 'pt', '100'],
    ['0.000000000000000001', 'es', '0,000000000000000001'],
    ['98765432109876543210.123456789012345678', 'en', '98,765,432,109,876,543,210.123456789012345678'],
  ])('writes %s in %s as %s', (value, locale, expected) => {
    expect(formatDecimalIn(value, locale)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatToken,
  formatUsd,
  fromUnits,
  includedTaxCents,
  normalizeAmount,
  parseDollarAmount,
  toUnits,
} from './amount.ts';

const problem = (input: string, locale = 'en') => parseDollarAmount(input, locale).problem;
const amount = (input: string, locale = 'en') => parseDollarAmount(input, locale).amount;

describe('amounts', () => {
  it('validates USD amounts: greater than 0, at most 2 decimals, at most the service cap', () => {
    expect(problem('')).toBe('required');
    expect(problem('  ')).toBe('required');
    expect(problem('0')).toBe('positive');
    expect(problem('0.00')).toBe('positive');
    expect(problem('1.234')).toBe('format');
    // A negative amount is told it must be above 0, whatever its decimals; a lone minus is not a number.
    expect(problem('-1')).toBe('positive');
    expect(problem('-5')).toBe('positive');
    expect(problem(' -0.001')).toBe('positive');
    expect(problem('\u22125,50', 'es')).toBe('positive');
    expect(problem('-')).toBe('format');
    expect(problem('-abc')).toBe('format');
    expect(problem('5-')).toBe('format');
    expect(problem('1e3')).toBe('format');
    expect(problem('12.')).toBe('format');
    expect(problem('abc')).toBe('format');
    expect(amount('7.5')).toBe('7.50');
    expect(amount('1000000000')).toBe('1000000000.00');
    expect(problem('1000000000.01')).toBe('max');
    expect(problem('100000000000000000000000')).toBe('max');
  });

  it("reads the locale's decimal and group separators exactly", () => {
    expect(amount('12,50', 'es')).toBe('12.50');
    expect(amount('12,5', 'pt-BR')).toBe('12.50');
    expect(amount('1.234,56', 'pt-BR')).toBe('1234.56');
    expect(amount('1.234', 'es-ES')).toBe('1234.00');
    expect(amount('12.50', 'es')).toBe('12.50');
    expect(amount('1 234,56', 'fr')).toBe('1234.56');
    expect(amount('1,234.56', 'en-US')).toBe('1234.56');
    expect(amount('999,999,999.99', 'en')).toBe('999999999.99');
    // A comma in English only groups thousands; badly grouped separators are not guessed at.
    expect(problem('12,50', 'en')).toBe('format');
    expect(problem('1.23.4', 'es')).toBe('format');
    expect(problem('12,345,6', 'en')).toBe('format');
    expect(problem('1,234,56', 'es')).toBe('format');
    expect(normalizeAmount('0,10', 'pt')).toBe('0.10');
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
    expect(fromUnits(500n, 2, 2)).toBe('5.00');
    expect(formatToken('1234.5', 'USDC', 'de-DE')).toBe('1.234,5 USDC');
  });

  it('shows at most 6 decimals: rounded up for what is paid, down for what is held', () => {
    expect(formatToken('12.600458408438229852', 'DAI', 'en')).toBe('12.600459 DAI');
    expect(formatToken('12.600458000000000000', 'DAI', 'en')).toBe('12.600458 DAI');
    expect(formatToken('0.0000001', 'DAI', 'en')).toBe('0.000001 DAI');
    expect(formatToken('12.999999900000000000', 'DAI', 'es')).toBe('13 DAI');
    expect(formatToken('12.600458408438229852', 'DAI', 'en', 'down')).toBe('12.600458 DAI');
    expect(formatToken('0.0000009', 'DAI', 'en', 'down')).toBe('0 DAI');
    // Six decimals or fewer are shown as they are written, trailing zeros included.
    expect(formatToken('25.000137', 'BUSD', 'en')).toBe('25.000137 BUSD');
    expect(formatToken('7.00', 'BUSD', 'pt-BR')).toBe('7,00 BUSD');
    // Beside a USD price: at least the price's 2 decimals, never fewer digits than asked.
    expect(formatToken('4.2', 'BUSD', 'en', 'up', 2)).toBe('4.20 BUSD');
    expect(formatToken('7', 'BUSD', 'es', 'down', 2)).toBe('7,00 BUSD');
    expect(formatToken('19.990237', 'BUSD', 'en', 'up', 2)).toBe('19.990237 BUSD');
  });

  it('formats USD exactly at any size, in the locale', () => {
    expect(formatUsd('12.5', 'en')).toBe('$12.50');
    expect(formatUsd('1000000000', 'en')).toBe('$1,000,000,000.00');
    expect(formatUsd('123456789012345678901234.56', 'en')).toBe('$123,456,789,012,345,678,901,234.56');
    expect(formatUsd('9007199254740993.01', 'en')).toBe('$9,007,199,254,740,993.01');
    expect(formatUsd('12.50', 'pt-BR')).toBe('US$\u00a012,50');
    expect(formatUsd('1234.05', 'es-ES')).toBe('1234,05\u00a0US$');
  });
});

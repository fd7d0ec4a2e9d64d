import { describe, expect, it } from 'vitest';
import { checkRut } from './checkRut.ts';

describe('checkRut', () => {
  // Banco de Chile, BancoEstado, a RUN ending in K in three spellings, the textbook example.
  it.each([
    '97.004.000-5',
    '97004000-5',
    '970040005',
    '97.030.000-7',
    '12.450.547-K',
    '12450547-k',
    '12450547K',
    '12.345.678-5',
    '7.654.321-6',
  ])('accepts %s', (rut) => {
    expect(checkRut(rut)).toBeUndefined();
  });

  it.each([
    ['97.004.000-4', 'has a wrong check digit'],
    ['12.450.547-0', 'has a wrong check digit'],
    ['12345678-K', 'has a wrong check digit'],
    ['97.004.000-X', 'must be a RUT such as 12.345.678-5'],
    ['970.040.00-5', 'must be a RUT such as 12.345.678-5'],
    ['123456789-0', 'must be a RUT such as 12.345.678-5'],
    ['-5', 'must be a RUT such as 12.345.678-5'],
    // Bodies of fewer than 7 digits are not issued today.
    ['1.234-3', 'must be a RUT such as 12.345.678-5'],
  ])('rejects %s', (rut, message) => {
    expect(checkRut(rut)).toBe(message);
  });
});

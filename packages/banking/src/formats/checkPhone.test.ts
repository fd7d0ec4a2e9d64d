import { describe, expect, it } from 'vitest';
import { checkPhone } from './checkPhone.ts';

describe('checkPhone', () => {
  it.each([
    ['+447515772386', undefined],
    ['+52 55 5140 4000', undefined],
    ['55 5140 4000', 'MX'],
    ['11 2345-6789', 'AR'],
    ['+57 300 1234567', 'CO'],
    ['999 999 999', 'PE'],
    ['+56 2 2345 6789', 'PE'],
  ])('accepts %s (country %s)', (phone, country) => {
    expect(checkPhone(phone, country)).toBeUndefined();
  });

  it('reads a number without + as national to the country', () => {
    expect(checkPhone('55 5140 4000')).toBe(
      'must be a valid phone number in international form (+ and the country calling code)',
    );
    expect(checkPhone('55 5140 4000', 'AR')).toBe(
      'must be a valid phone number of AR, or in international form (+54…)',
    );
  });

  it.each([
    ['12345', 'MX', 'must be a valid phone number of MX, or in international form (+52…)'],
    ['+52 12', 'MX', 'must be a valid phone number of MX, or in international form (+52…)'],
    [
      'phone',
      undefined,
      'must be a valid phone number in international form (+ and the country calling code)',
    ],
    ['12', 'AQ', 'must be a valid phone number in international form (+ and the country calling code)'],
  ])('rejects %s (country %s)', (phone, country, message) => {
    expect(checkPhone(phone, country)).toBe(message);
  });
});

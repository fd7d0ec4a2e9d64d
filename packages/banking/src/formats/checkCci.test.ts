import { describe, expect, it } from 'vitest';
import { checkCci } from './checkCci.ts';

describe('checkCci', () => {
  // CCIs published by Peruvian businesses: BCP, Interbank, BBVA, Scotiabank, Banco de la Nación.
  it.each([
    '00219412967922501399',
    '00320001312661595237',
    '01140200490000002359',
    '00931000000322882746',
    '01826100026102241984',
  ])('accepts %s', (cci) => {
    expect(checkCci(cci)).toBeUndefined();
  });

  it.each([
    ['0021941296792250139', 'must be a 20-digit CCI'],
    ['002194129679225013990', 'must be a 20-digit CCI'],
    ['002-194-129679225013-99', 'must be a 20-digit CCI'],
    ['00219412967922501389', 'has wrong check digits'],
    ['00219412967922501398', 'has wrong check digits'],
    ['00320001312661595273', 'has wrong check digits'],
  ])('rejects %s', (cci, message) => {
    expect(checkCci(cci)).toBe(message);
  });
});

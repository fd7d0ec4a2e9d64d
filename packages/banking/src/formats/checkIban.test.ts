import { describe, expect, it } from 'vitest';
import { checkIban } from './checkIban.ts';

describe('checkIban', () => {
  it.each([
    'DE89370400440532013000',
    'DE89 3704 0044 0532 0130 00',
    'de89370400440532013000',
    'GB82WEST12345698765432',
    'GB82-WEST-1234-5698-7654-32',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
    'BE68539007547034',
    'CH9300762011623852957',
  ])('accepts %s', (iban) => {
    expect(checkIban(iban)).toBeUndefined();
  });

  it.each([
    ['hello', 'must be an IBAN: a country code, two check digits, then the account in letters and digits'],
    ['', 'must be an IBAN: a country code, two check digits, then the account in letters and digits'],
    ['US12345678901234', 'uses US, which has no IBANs'],
    ['DE8937040044053201300', 'must be 22 characters long for DE'],
    ['GB82WEST1234569876543X', 'does not match the account format of GB'],
    ['DE89370400440532013001', 'has wrong check digits'],
    ['BE69539007547034', 'has wrong check digits'],
    ['FR8420041010050500013M02607', 'has a wrong national check digit for FR'],
  ])('rejects %s', (iban, message) => {
    expect(checkIban(iban)).toBe(message);
  });
});

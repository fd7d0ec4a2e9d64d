import { isSEPACountry } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { sepaCountries } from '../data/sepaCountries.ts';
import { checkSepaIban } from './checkSepaIban.ts';

describe('checkSepaIban', () => {
  // Germany, Switzerland (outside the EU), Gibraltar, Montenegro (in SEPA since 2024), Serbia (since 2025; the
  // SWIFT IBAN Registry's example).
  it.each([
    'DE89370400440532013000',
    'CH9300762011623852957',
    'GI75NWBK000000007099453',
    'ME25505000012345678951',
    'RS35260005601001611379',
  ])('accepts %s', (iban) => {
    expect(checkSepaIban(iban)).toBeUndefined();
  });

  // Valid IBANs of countries outside SEPA.
  it.each([
    ['AE070331234567890123456', 'AE'],
    ['SA0380000000608010167519', 'SA'],
    ['TR330006100519786457841326', 'TR'],
    ['IL620108000000099999999', 'IL'],
    ['EG380019000500000000263180002', 'EG'],
    ['KZ86125KZT5004100100', 'KZ'],
    ['QA58DOHB00001234567890ABCDEFG', 'QA'],
    ['BR1800360305000010009795493C1', 'BR'],
  ])('rejects %s', (iban, country) => {
    expect(checkSepaIban(iban)).toBe(
      `is from ${country}, which is outside SEPA: use rails swift for this account`,
    );
  });

  it('reports a malformed IBAN as such first', () => {
    expect(checkSepaIban('AE070331234567890123457')).toBe('has wrong check digits');
  });

  it('agrees with ibantools on its SEPA countries, adding those the EPC admitted since and territories', () => {
    const fromIbantools = [
      'AD',
      'AT',
      'BE',
      'BG',
      'CH',
      'CY',
      'CZ',
      'DE',
      'DK',
      'EE',
      'ES',
      'FI',
      'FR',
      'GB',
      'GI',
    ]
      .concat([
        'GR',
        'HR',
        'HU',
        'IE',
        'IS',
        'IT',
        'LI',
        'LT',
        'LU',
        'LV',
        'MC',
        'MT',
        'NL',
        'NO',
        'PL',
        'PT',
      ])
      .concat(['RO', 'SE', 'SI', 'SK', 'SM', 'VA']);
    for (const country of fromIbantools) expect([country, isSEPACountry(country)]).toEqual([country, true]);
    const added = [...sepaCountries].filter((country) => !isSEPACountry(country)).sort();
    expect(added).toEqual([
      'AL',
      'AX',
      'BL',
      'GF',
      'GP',
      'MD',
      'ME',
      'MF',
      'MK',
      'MQ',
      'PM',
      'RE',
      'RS',
      'YT',
    ]);
    expect(fromIbantools.every((country) => sepaCountries.has(country))).toBe(true);
  });
});

import { composeIBAN } from 'ibantools';
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
    'LI21088100002324013AA',
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

  // National check digits ibantools leaves unchecked. Accepted: the SWIFT IBAN Registry's example of each country.
  // Refused: the same with the national check digit changed and the IBAN check digits recomputed, so only the
  // national rule can tell (schwifty's national checksums refuse each one too). The rules are in ibanNationalCheck.ts.
  it.each([
    ['IT60X0542811101000000123456', 'IT64Y0542811101000000123456'], // CIN (Associazione Bancaria Italiana)
    ['SM86U0322509800000000270100', 'SM06A0322509800000000270100'], // CIN, as in Italy
    ['FI2112345600000785', 'FI9112345600000786'], // Luhn over the 14-digit account number
    ['IS140159260076545510730339', 'IS350159260076545510730349'], // kennitala, mod 11
    ['TL380080012345678910157', 'TL110080012345678910158'], // ISO 7064 MOD 97-10
    ['TN5910006035183598478831', 'TN3210006035183598478832'], // RIB key, 97 − (rest × 100 mod 97)
    ['MR1300020001010000123456753', 'MR8300020001010000123456754'], // RIB key
  ])('checks the national check digit: accepts %s, refuses %s', (good, bad) => {
    expect(checkIban(good)).toBeUndefined();
    expect(checkIban(bad)).toBe(`has a wrong national check digit for ${bad.slice(0, 2)}`);
  });

  // North Macedonia's account part may hold letters (registry format 3!n10!c2!n); its national check digits
  // count a letter as the IBAN check does (A = 10 … Z = 35), as python-stdnum and schwifty accept them.
  it('accepts North Macedonian IBANs with letters in the account and checks their national digits', () => {
    expect(checkIban('MK07250120000058984')).toBeUndefined(); // the registry's example
    expect(checkIban('MK07300000ABC123409')).toBeUndefined();
    const wrongKey = composeIBAN({ countryCode: 'MK', bban: '300000ABC123408' }) ?? '';
    expect(checkIban(wrongKey)).toBe('has a wrong national check digit for MK');
    const wrongDigits = composeIBAN({ countryCode: 'MK', bban: '250120000058983' }) ?? '';
    expect(checkIban(wrongDigits)).toBe('has a wrong national check digit for MK');
  });

  it('takes 97 and never 00 as the key of a number whose key is 97, though both leave the same remainder', () => {
    // A multiple of 97 has 97 − (N × 100 mod 97) = 97.
    const body = (97n * 1234567890123456n).toString().padStart(18, '0');
    const withKey = (key: string) => composeIBAN({ countryCode: 'TN', bban: `${body}${key}` }) ?? '';
    expect(checkIban(withKey('97'))).toBeUndefined();
    expect(checkIban(withKey('00'))).toBe('has a wrong national check digit for TN');
  });

  // ISO 13616: only the registry's countries have IBANs. ibantools also knows formats published outside it.
  it.each(['IR790120000000003011234567', 'DZ930002123456789012345600', 'AO06004400006729503010102'])(
    'refuses %s, of a country outside the IBAN registry',
    (iban) => {
      expect(checkIban(iban)).toBe(
        `uses ${iban.slice(0, 2)}, which is not in the IBAN registry (ISO 13616): its IBAN-like numbers are not IBANs`,
      );
    },
  );

  // Registry members since ibantools' list: the SWIFT IBAN Registry's examples (release 101).
  it.each([
    'BI4210000100010000332045181',
    'DJ2100010000000154000100186',
    'FK88SC123456789012',
    'HN88CABF00000000000250005469',
    'RS35260005601001611379',
  ])('accepts %s, of a country that joined the registry', (iban) => {
    expect(checkIban(iban)).toBeUndefined();
  });

  // SIX, Swiss Implementation Guidelines for the QR-bill: QR-IIDs 30000–31999 take only QR-bill payments.
  const swiss = (institution: string, country = 'CH') =>
    composeIBAN({
      countryCode: country,
      bban: `${institution}${country === 'CH' ? '123000889012' : '0002324013AA'}`,
    }) ?? '';
  it.each(['CH4431999123000889012', swiss('30000'), swiss('31999'), swiss('30000', 'LI')])(
    'refuses the QR-IBAN %s',
    (iban) => {
      expect(checkIban(iban)).toBe(
        'is a QR-IBAN (institution id 30000–31999), which takes only QR-bill payments: give the account’s ordinary IBAN',
      );
    },
  );

  it.each([swiss('29999'), swiss('32000'), swiss('08810', 'LI')])('accepts %s, an ordinary IBAN', (iban) => {
    expect(checkIban(iban)).toBeUndefined();
  });
});

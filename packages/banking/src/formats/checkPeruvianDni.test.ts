import { describe, expect, it } from 'vitest';
import { checkPeruvianDni, peruvianDniDigits } from './checkPeruvianDni.ts';

const wrongCharacter =
  'has a wrong check character (the 9th, printed after the number on the card: a digit, or a letter on cards printed before 2007)';

describe('checkPeruvianDni', () => {
  it.each(['10117410', '45678912', '00012345'])('accepts %s', (dni) => {
    expect(checkPeruvianDni(dni)).toBeUndefined();
  });

  it.each([
    ['HELLO', 'must be the 8 digits of a DNI'],
    ['1011741', 'must be the 8 digits of a DNI'],
    ['1011741012', 'must be the 8 digits of a DNI'],
    // 10117410's check character is 2 or G; a right one is dropped before the check (canonicalPaymentDetail).
    ['101174103', wrongCharacter],
    ['10117410J', wrongCharacter],
  ])('rejects %s', (dni, message) => {
    expect(checkPeruvianDni(dni)).toBe(message);
  });
});

describe('peruvianDniDigits', () => {
  // RENIEC's check character, as python-stdnum's pe.cui computes it: calc_check_digits('10117410') is '2G',
  // '00000000' is '6K', '12345678' is '1E', '87654321' is '0D'.
  it.each([
    ['101174102', '10117410'],
    ['10117410G', '10117410'],
    ['000000006', '00000000'],
    ['00000000K', '00000000'],
    ['123456781', '12345678'],
    ['12345678E', '12345678'],
    ['876543210', '87654321'],
    ['87654321D', '87654321'],
  ])('drops the right check character of %s', (value, digits) => {
    expect(peruvianDniDigits(value)).toBe(digits);
  });

  it.each(['101174103', '10117410H', '00000000A', '10117410', '1011741G'])('keeps %s as it is', (value) => {
    expect(peruvianDniDigits(value)).toBe(value);
  });
});

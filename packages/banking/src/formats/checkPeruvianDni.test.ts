import { describe, expect, it } from 'vitest';
import { checkPeruvianDni } from './checkPeruvianDni.ts';

describe('checkPeruvianDni', () => {
  it.each(['10117410', '45678912', '00012345'])('accepts %s', (dni) => {
    expect(checkPeruvianDni(dni)).toBeUndefined();
  });

  it.each([
    ['HELLO', 'must be the 8 digits of a DNI'],
    ['1011741', 'must be the 8 digits of a DNI'],
    ['1011741012', 'must be the 8 digits of a DNI'],
    // 10117410 has check digit 2; a right one is dropped before the check (canonicalPaymentDetail).
    ['101174103', 'has a wrong check digit (the 9th, printed after the number on the card)'],
    ['10117410J', 'must be the 8 digits of a DNI'],
  ])('rejects %s', (dni, message) => {
    expect(checkPeruvianDni(dni)).toBe(message);
  });
});

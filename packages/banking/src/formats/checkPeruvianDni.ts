import { stdnumValidator } from '../stdnumValidator.ts';

const cui = stdnumValidator('PE', 'cui');

/** Why `value` is not a Peruvian DNI (8 digits; the card's check digit is dropped when canonical), or undefined. */
export function checkPeruvianDni(value: string): string | undefined {
  if (/^\d{8}$/.test(value)) return undefined;
  // A ninth digit that is the card's check digit would have been dropped: this one is wrong.
  if (/^\d{9}$/.test(value) && !cui.validate(value).isValid) {
    return 'has a wrong check digit (the 9th, printed after the number on the card)';
  }
  return 'must be the 8 digits of a DNI';
}

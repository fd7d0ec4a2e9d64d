import { stdnumValidator } from '../stdnumValidator.ts';

const cui = stdnumValidator('PE', 'cui');

/** Why `value` is not a Peruvian DNI (8 digits; the card's check character is dropped when canonical), or undefined. */
export function checkPeruvianDni(value: string): string | undefined {
  if (/^\d{8}$/.test(value)) return undefined;
  // A ninth character that is the card's check digit or letter would have been dropped: this one is wrong.
  if (/^\d{8}[0-9A-K]$/.test(value) && !cui.validate(value).isValid) {
    return 'has a wrong check character (the 9th, printed after the number on the card)';
  }
  return 'must be the 8 digits of a DNI';
}

import { stdnumValidator } from '../stdnumValidator.ts';

const nit = stdnumValidator('CO', 'nit');

/** Why `value` is not a Colombian NIT with its check digit (8 to 16 digits, DIAN's mod-11), or undefined. */
export function checkNit(value: string): string | undefined {
  if (!/^\d{8,16}$/.test(value)) return 'must be a NIT with its check digit, such as 900.544.472-2';
  return nit.validate(value).isValid ? undefined : 'has a wrong check digit (the last digit, after the dash)';
}

import { stdnumValidator } from '../stdnumValidator.ts';

const curp = stdnumValidator('MX', 'curp');

/** Why `value` is not a Mexican CURP (18 characters, a real past birth date, sex, state, check digit), or undefined. */
export function checkCurp(value: string): string | undefined {
  if (!/^[A-Z]{4}\d{6}[A-Z]{6}[0-9A-Z]\d$/.test(value)) {
    return 'must be an 18-character CURP such as BOXW310820HNERXN09';
  }
  // The 17th character tells the century: a digit for births before 2000, a letter from 2000 on.
  const century = /\d/.test(value[16] ?? '') ? 1900 : 2000;
  if (
    !isPastDate(century + Number(value.slice(4, 6)), Number(value.slice(6, 8)), Number(value.slice(8, 10)))
  ) {
    return 'has a birth date (characters 5 to 10) that is not a real past date';
  }
  const result = curp.validate(value);
  if (result.isValid) return undefined;
  return result.error.name === 'InvalidChecksum'
    ? 'has a wrong check digit'
    : 'has an unknown sex, state or name code';
}

function isPastDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && date.getTime() <= Date.now();
}

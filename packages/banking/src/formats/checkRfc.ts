import { stdnumValidator } from '../stdnumValidator.ts';

const rfc = stdnumValidator('MX', 'rfc');

// SAT's generic RFCs for sales to the general public and to foreigners: they name no one.
const genericRfcs = new Set(['XAXX010101000', 'XEXX010101000']);

// The check digit (the last character) is not enforced: around 1.5 % of the RFCs in use fail SAT's formula
// (python-stdnum's estimate, which leaves it unchecked by default for that reason). A typing mistake is still
// often caught by the date and the homoclave's form (docs/area-b-decisions.md).
/**
 * Why `value` is not a Mexican RFC with homoclave (12 characters for a company, 13 for a person: letters, a real
 * date, homoclave), or undefined; the check digit is not enforced.
 */
export function checkRfc(value: string): string | undefined {
  if (!/^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/.test(value)) {
    return 'must be an RFC with its homoclave: 12 characters for a company, 13 for a person';
  }
  if (genericRfcs.has(value)) return 'is a generic RFC of SAT, not the beneficiary’s own';
  const result = rfc.validate(value);
  // stdnum checks the check digit last: InvalidChecksum means everything before it holds.
  if (result.isValid || result.error.name === 'InvalidChecksum') return undefined;
  return 'has a date (the 6 digits after the name letters) that is not a real date, or an impossible homoclave';
}

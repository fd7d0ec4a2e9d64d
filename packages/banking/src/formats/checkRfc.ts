import { stdnumValidator } from '../stdnumValidator.ts';

const rfc = stdnumValidator('MX', 'rfc');

// SAT's generic RFCs for sales to the general public and to foreigners: they name no one.
const genericRfcs = new Set(['XAXX010101000', 'XEXX010101000']);

/** Why `value` is not a Mexican RFC with homoclave (12 characters for a company, 13 for a person), or undefined. */
export function checkRfc(value: string): string | undefined {
  if (!/^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/.test(value)) {
    return 'must be an RFC with its homoclave: 12 characters for a company, 13 for a person';
  }
  if (genericRfcs.has(value)) return 'is a generic RFC of SAT, not the beneficiary’s own';
  const result = rfc.validate(value);
  if (result.isValid) return undefined;
  return result.error.name === 'InvalidChecksum'
    ? 'has a wrong check digit'
    : 'has a date (the 6 digits after the name letters) that is not a real date, or an impossible homoclave';
}

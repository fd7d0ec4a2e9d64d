import { stdnumValidator } from '../stdnumValidator.ts';

const ruc = stdnumValidator('PE', 'ruc');

/** Why `value` is not a Peruvian RUC (11 digits, type 10, 15, 16, 17 or 20, mod-11 check digit), or undefined. */
export function checkRuc(value: string): string | undefined {
  if (!/^\d{11}$/.test(value)) return 'must be an 11-digit RUC';
  const result = ruc.validate(value);
  if (result.isValid) return undefined;
  return result.error.name === 'InvalidChecksum'
    ? 'has a wrong check digit'
    : 'must start with 10, 15, 16, 17 or 20 (the taxpayer type)';
}

import { sepaCountries } from '../data/sepaCountries.ts';
import { checkIban } from './checkIban.ts';

/** Why `value` is not an IBAN of a country or territory in the SEPA schemes, or undefined. */
export function checkSepaIban(value: string): string | undefined {
  const problem = checkIban(value);
  if (problem) return problem;
  const country = value.slice(0, 2).toUpperCase();
  return sepaCountries.has(country)
    ? undefined
    : `is from ${country}, which is outside SEPA: use rails swift for this account`;
}

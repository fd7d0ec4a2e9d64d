import countries from 'i18n-iso-countries';

/**
 * Why `value` is not a BIC/SWIFT code (8 or 11 characters whose 5th and 6th are an ISO country),
 * or undefined when it is. Case is ignored, as the partners' own pattern does.
 */
export function checkBic(value: string): string | undefined {
  if (!/^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$/.test(value)) {
    return 'must be 8 or 11 characters: 4-letter bank code, 2-letter country code, 2-character location, optional 3-character branch';
  }
  const country = value.slice(4, 6).toUpperCase();
  if (!(country in countries.getAlpha2Codes())) return `has ${country} as its country, which is not a country code`;
  return undefined;
}

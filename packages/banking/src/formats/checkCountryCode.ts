import countries from 'i18n-iso-countries';

/** Why `value` is not an upper-case ISO 3166-1 alpha-2 country code, or undefined when it is. */
export function checkCountryCode(value: string): string | undefined {
  return /^[A-Z]{2}$/.test(value) && value in countries.getAlpha2Codes()
    ? undefined
    : 'must be an ISO 3166-1 alpha-2 country code such as US';
}

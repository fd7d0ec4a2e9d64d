import countries from 'i18n-iso-countries';

// Case is ignored, as in the payout partners' own pattern.
/** Why `value` is not a BIC (8 or 11 characters, the 5th and 6th an ISO country), or undefined. */
export function checkBic(value: string): string | undefined {
  if (!/^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$/.test(value)) {
    return 'must be 8 or 11 characters: 4-letter bank code, 2-letter country code, 2-character location, optional 3-character branch';
  }
  const country = value.slice(4, 6).toUpperCase();
  return country in countries.getAlpha2Codes()
    ? undefined
    : `has ${country} as its country, which is not a country code`;
}

import { getCountryCallingCode, isSupportedCountry, isValidPhoneNumber } from 'libphonenumber-js/max';

// A number without a leading + is read as national to `country`.
/** Why `value` is not a phone number in use in its country's numbering plan, or undefined. */
export function checkPhone(value: string, country?: string): string | undefined {
  const region = country !== undefined && isSupportedCountry(country) ? country : undefined;
  if (isValidPhoneNumber(value, region)) return undefined;
  return region
    ? `must be a valid phone number of ${region}, or in international form (+${getCountryCallingCode(region)}…)`
    : 'must be a valid phone number in international form (+ and the country calling code)';
}

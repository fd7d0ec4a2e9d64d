import type { CountryCode } from 'libphonenumber-js/max';
import { isValidPhoneNumber } from 'libphonenumber-js/max';

/**
 * Why `value` is not a phone number that exists in the numbering plan, or undefined when it is.
 * A number without a leading + is read as national to `country`.
 */
export function checkPhone(value: string, country?: string): string | undefined {
  const region = country as CountryCode | undefined;
  if (isValidPhoneNumber(value, region)) return undefined;
  return region
    ? `must be a valid phone number of ${region} or in international form such as +${region === 'US' ? '1' : ''}…`
    : 'must be a valid phone number in international form such as +44 7515 772386';
}

import { LatamBankNamesError } from './errors.ts';
import { latamBanks } from './latamBanks.ts';
import { type LatamCountryCode, latamCountryCodes } from './types.ts';

/** Body of the `latam_bank_names` response. */
export interface LatamBankNamesResult {
  bank_names: string[];
}

// Colombia's list is that of the koywe rail, so CO needs rails koywe; other countries ignore rails.
/** The bank names accepted as `bank_name` for a Latam payout in `countryCode`; throws LatamBankNamesError. */
export function latamBankNames(
  countryCode: string | null | undefined,
  rails?: string | null,
): LatamBankNamesResult {
  if (countryCode === undefined || countryCode === null || countryCode === '') {
    throw new LatamBankNamesError('country_code', 'is required');
  }
  if (!isLatamCountryCode(countryCode)) {
    throw new LatamBankNamesError('country_code', `must be one of: ${latamCountryCodes.join(', ')}`);
  }
  if (countryCode === 'CO' && rails !== 'koywe')
    throw new LatamBankNamesError('rails', 'must be koywe for CO');
  // Banks no payout can reach any more are not offered; a detail naming one is refused with the reason.
  return { bank_names: latamBanks[countryCode].filter((bank) => !bank.unreachable).map((bank) => bank.name) };
}

function isLatamCountryCode(value: string): value is LatamCountryCode {
  return (latamCountryCodes as readonly string[]).includes(value);
}

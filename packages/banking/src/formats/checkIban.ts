import {
  electronicFormatIBAN,
  getCountrySpecifications,
  ValidationErrorsIBAN,
  validateIBAN,
} from 'ibantools';
import { ibanRegistryCountries } from '../data/ibanRegistry.ts';
import { ibanNationalCheckHolds, nationalCheckReplaced } from './ibanNationalCheck.ts';

/**
 * Swiss and Liechtenstein QR-IBANs carry a QR institution id (IBAN characters 5–9) from 30000 to 31999 and
 * take only QR-bill payments with a QR reference (SIX, Swiss Implementation Guidelines for the QR-bill, "QR-IBAN"):
 * a payout to one is returned.
 */
function isQrIban(iban: string): boolean {
  const institution = Number(iban.slice(4, 9));
  return (iban.startsWith('CH') || iban.startsWith('LI')) && institution >= 30000 && institution <= 31999;
}

// Spaces and dashes between groups are accepted: IBANs are printed that way.
/**
 * Why `value` is not an IBAN a payout can go to (a country of the ISO 13616 registry, its length and format,
 * mod-97 check digits, the national check digit; no QR-IBAN), or undefined.
 */
export function checkIban(value: string): string | undefined {
  const iban = electronicFormatIBAN(value) ?? '';
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    return 'must be an IBAN: a country code, two check digits, then the account in letters and digits';
  }
  const country = iban.slice(0, 2);
  const errorCodes = validateIBAN(iban).errorCodes.filter(
    (code) =>
      code !== ValidationErrorsIBAN.WrongAccountBankBranchChecksum || !nationalCheckReplaced.has(country),
  );
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) return `uses ${country}, which has no IBANs`;
  if (!ibanRegistryCountries.has(country)) {
    return `uses ${country}, which is not in the IBAN registry (ISO 13616): its IBAN-like numbers are not IBANs`;
  }
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) {
    return `must be ${getCountrySpecifications()[country]?.chars} characters long for ${country}`;
  }
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat))
    return `does not match the account format of ${country}`;
  if (
    errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum) ||
    errorCodes.includes(ValidationErrorsIBAN.ChecksumNotNumber)
  ) {
    return 'has wrong check digits';
  }
  // Some countries (FR, ES, IT, BE…) carry their own check digit inside the account part.
  if (errorCodes.length > 0 || !ibanNationalCheckHolds(country, iban.slice(4))) {
    return `has a wrong national check digit for ${country}`;
  }
  if (isQrIban(iban)) {
    return 'is a QR-IBAN (institution id 30000–31999), which takes only QR-bill payments: give the account’s ordinary IBAN';
  }
  return undefined;
}

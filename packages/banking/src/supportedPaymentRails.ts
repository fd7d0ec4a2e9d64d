import { basePaymentDetailFields, paymentDetailRules } from './paymentDetailRules.ts';
import { resolvePaymentRail } from './resolvePaymentRail.ts';
import type { LatamCountryCode, PaymentDetailField, PaymentRail } from './types.ts';

/** One supported currency and rail, with the fields a payment detail for it must carry. */
export interface SupportedPaymentRail {
  currency: string;
  rail: PaymentRail;
  /** This rail is used when `rails` is null or blank. */
  isDefault: boolean;
  /** Still accepted, but a newer rail serves the currency. */
  deprecated: boolean;
  requiredFields: readonly PaymentDetailField[];
  /** Required too when `beneficiary_type` is individual. */
  requiredForIndividuals: readonly PaymentDetailField[];
  /** At least one field of each group is required. */
  requiredOneOf: readonly (readonly PaymentDetailField[])[];
  /** `bank_name` must be a name from `latam_bank_names` for this country. */
  bankNamesCountry: LatamCountryCode | null;
}

/** Every currency/rail combination payment details are accepted for, for the API to document. */
export const supportedPaymentRails: readonly SupportedPaymentRail[] = Object.entries(
  paymentDetailRules,
).flatMap(([currency, rule]) =>
  Object.entries(rule.rails).map(([rail, railRule]) => ({
    currency,
    rail: rail as PaymentRail,
    isDefault: resolvePaymentRail(currency) === rail,
    deprecated: railRule.deprecated,
    requiredFields: [...new Set([...basePaymentDetailFields, ...railRule.required])],
    requiredForIndividuals: railRule.requiredForIndividuals,
    requiredOneOf: railRule.requiredOneOf,
    bankNamesCountry: rule.latamCountry ?? null,
  })),
);

import { paymentDetailInputFields } from '@checkout/core';

/** Every field a payment detail may carry: the API's input fields plus those the payout partners ask for per currency. */
export const paymentDetailFields = paymentDetailInputFields;

/** Name of one payment detail field. */
export type PaymentDetailField = (typeof paymentDetailFields)[number];

/** A payment detail as submitted: every field optional; null and blank count as absent. */
export type PaymentDetailInput = { [K in PaymentDetailField]?: string | null | undefined };

/** The payout networks a payment detail can be paid over. */
export const paymentRails = ['local', 'swift', 'wire', 'koywe'] as const;

/** One payout network: `local` (SEPA, ACH, SPEI…), `swift`, `wire` (USD Fedwire) or `koywe` (COP). */
export type PaymentRail = (typeof paymentRails)[number];

/** One problem with one field; `message` reads after the field name ("iban has wrong check digits"). */
export interface PaymentDetailFieldError {
  field: string;
  message: string;
}

/** Outcome of a format check: `valid` is true exactly when `errors` is empty. */
export interface PaymentDetailValidation {
  valid: boolean;
  errors: PaymentDetailFieldError[];
}

/** Countries with a curated bank name list. */
export const latamCountryCodes = ['AR', 'CO', 'MX', 'CL', 'PE'] as const;

/** Country code of a Latam bank name list. */
export type LatamCountryCode = (typeof latamCountryCodes)[number];

/** One bank of a Latam list; `accountPrefix` is how its CBU/CVU, CLABE or CCI numbers start, where known. */
export interface LatamBank {
  name: string;
  code?: string;
  accountPrefix?: string;
  /** Set when no payout can reach the bank any more: why, as the end of a sentence naming it. */
  unreachable?: string;
}

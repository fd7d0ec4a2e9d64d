import { canonicalPaymentDetail } from './canonicalPaymentDetail.ts';
import {
  anyCurrencyChecks,
  basePaymentDetailFields,
  paymentDetailRules,
  type RailRule,
} from './paymentDetailRules.ts';
import { resolvePaymentRail } from './resolvePaymentRail.ts';
import {
  type PaymentDetailField,
  type PaymentDetailFieldError,
  type PaymentDetailInput,
  type PaymentDetailValidation,
  paymentDetailFields,
  paymentRails,
} from './types.ts';

/** Options of validatePaymentDetail. */
export interface ValidatePaymentDetailOptions {
  /** When false, only the formats of the fields given are checked, as for a draft. Default true. */
  requireFields?: boolean;
}

const supportedCurrencies = Object.keys(paymentDetailRules).sort();

// A format check only: it cannot tell whether the account exists or belongs to the beneficiary. The canonical
// form (canonicalPaymentDetail) is what is checked, so what passes here is what is stored.
/** Checks a payment detail's fields and formats for its currency and rail, listing every problem. */
export function validatePaymentDetail(
  submitted: PaymentDetailInput,
  options: ValidatePaymentDetailOptions = {},
): PaymentDetailValidation {
  const input = canonicalPaymentDetail(submitted);
  const requireFields = options.requireFields ?? true;
  const errors: PaymentDetailFieldError[] = [];
  const given = (field: PaymentDetailField): string | undefined => {
    const value = input[field];
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  };

  // The currency and the rail decide every other rule.
  const currencyValue = given('currency');
  const currency = currencyValue?.toLowerCase();
  const knownCurrency = currency !== undefined && Object.hasOwn(paymentDetailRules, currency);
  if (currencyValue === undefined) {
    if (requireFields) errors.push({ field: 'currency', message: 'is required' });
  } else if (!knownCurrency) {
    errors.push({ field: 'currency', message: `must be one of: ${supportedCurrencies.join(', ')}` });
  } else if (currencyValue !== currency) {
    errors.push({ field: 'currency', message: `must be the lower-case code ${currency}` });
  }

  const railsValue = given('rails');
  let railRule: RailRule | undefined;
  if (railsValue !== undefined && !(paymentRails as readonly string[]).includes(railsValue)) {
    errors.push({ field: 'rails', message: `must be one of: ${paymentRails.join(', ')}` });
  } else if (currency !== undefined && knownCurrency) {
    const rail = resolvePaymentRail(currency, railsValue);
    const offered = paymentDetailRules[currency]?.rails ?? {};
    if (rail === undefined) {
      errors.push({
        field: 'rails',
        message: `must be one of: ${Object.keys(offered).join(', ')} for ${currency}`,
      });
    } else {
      railRule = offered[rail];
    }
  }

  if (requireFields) {
    const required = new Set([...basePaymentDetailFields, ...(railRule?.required ?? [])]);
    required.delete('currency');
    if (given('country') === 'US') required.add('state');
    if (given('beneficiary_type') === 'individual') {
      for (const field of railRule?.requiredForIndividuals ?? []) required.add(field);
    }
    for (const field of required) {
      if (given(field) === undefined) errors.push({ field, message: 'is required' });
    }
    for (const [first, ...others] of railRule?.requiredOneOf ?? []) {
      if (given(first) === undefined && others.every((field) => given(field) === undefined)) {
        errors.push({ field: first, message: `is required unless ${others.join(' or ')} is given` });
      }
    }
  }

  for (const field of paymentDetailFields) {
    const value = given(field);
    if (value === undefined) continue;
    const problem = (railRule?.checks[field] ?? anyCurrencyChecks[field])?.(value, input);
    if (problem) errors.push({ field, message: problem });
  }

  // Grouped by field in the order of the field list, so the same input always reads the same.
  errors.sort((a, b) => rank(a.field) - rank(b.field));
  return { valid: errors.length === 0, errors };
}

function rank(field: string): number {
  return (paymentDetailFields as readonly string[]).indexOf(field);
}

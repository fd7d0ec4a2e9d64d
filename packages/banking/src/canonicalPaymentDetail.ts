import { findLatamBank } from './findLatamBank.ts';
import { peruvianDniDigits } from './formats/checkPeruvianDni.ts';
import { paymentDetailRules } from './paymentDetailRules.ts';
import type { PaymentDetailField, PaymentDetailInput } from './types.ts';

// Whitespace of every kind (tabs, non-breaking spaces…), dots and the dashes people paste from documents.
const separators = /[\s.\-\u2010-\u2015\u2212]/gu;
const spaces = /\s/gu;

const compact = (value: string) => value.replace(separators, '').toUpperCase();

// Account numbers that are national bank codes with check digits: CBU/CVU, CLABE, CCI.
const codedAccountCurrencies = new Set(['ars', 'mxn', 'pen']);

function canonicalField(field: PaymentDetailField, value: string, input: PaymentDetailInput): string {
  const trimmed = value.trim();
  const currency = input.currency?.trim().toLowerCase();
  switch (field) {
    case 'iban':
    case 'routing_number':
    case 'sort_code':
    case 'bsb_number':
      return compact(trimmed);
    case 'swift_bic':
      return trimmed.replace(spaces, '').toUpperCase();
    case 'account_number':
      return currency !== undefined && codedAccountCurrencies.has(currency) ? compact(trimmed) : trimmed;
    case 'document_type':
      return trimmed.toLowerCase();
    case 'document_number': {
      // The ARS rail's document is always a CUIT/CUIL; elsewhere the type says what the number is.
      const type = currency === 'ars' ? 'cuit' : input.document_type?.trim().toLowerCase();
      if (type === undefined || type === '') return trimmed;
      return type === 'dni' ? peruvianDniDigits(compact(trimmed)) : compact(trimmed);
    }
    case 'bank_name': {
      const country = currency === undefined ? undefined : paymentDetailRules[currency]?.latamCountry;
      return (country && findLatamBank(country, trimmed)?.name) ?? trimmed;
    }
    default:
      return trimmed;
  }
}

// Accepts what people type (spaces, dashes, dots, lower case, pasted whitespace) and gives the electronic form
// that is checked, stored and returned: IBAN and BIC upper case without separators; ABA, CBU, CLABE, CCI, CUIT
// and RUT without separators; identity documents compact and upper case; a listed bank name as it is listed.
/** The payment detail with every string trimmed and each identifier in its canonical electronic form. */
export function canonicalPaymentDetail(input: PaymentDetailInput): PaymentDetailInput {
  const output: PaymentDetailInput = {};
  for (const [field, value] of Object.entries(input) as [PaymentDetailField, string | null | undefined][]) {
    if (value === undefined) continue;
    output[field] = typeof value === 'string' ? canonicalField(field, value, input) : value;
  }
  return output;
}

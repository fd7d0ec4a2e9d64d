import { latamNationalities } from './data/latamNationalities.ts';
import { findLatamBank } from './findLatamBank.ts';
import { checkAbaRoutingNumber } from './formats/checkAbaRoutingNumber.ts';
import { checkAccountType } from './formats/checkAccountType.ts';
import { checkBic } from './formats/checkBic.ts';
import { checkBsb } from './formats/checkBsb.ts';
import { checkCbu } from './formats/checkCbu.ts';
import { checkCci } from './formats/checkCci.ts';
import { checkClabe } from './formats/checkClabe.ts';
import { checkColombianCedula } from './formats/checkColombianCedula.ts';
import { checkCountryCode } from './formats/checkCountryCode.ts';
import { checkCuit } from './formats/checkCuit.ts';
import { checkCurp } from './formats/checkCurp.ts';
import { checkIban } from './formats/checkIban.ts';
import { checkIfsc } from './formats/checkIfsc.ts';
import { checkNit } from './formats/checkNit.ts';
import { checkPeruvianDni } from './formats/checkPeruvianDni.ts';
import { checkPhone } from './formats/checkPhone.ts';
import { checkRfc } from './formats/checkRfc.ts';
import { checkRuc } from './formats/checkRuc.ts';
import { checkRut } from './formats/checkRut.ts';
import { checkSepaIban } from './formats/checkSepaIban.ts';
import { checkSortCode } from './formats/checkSortCode.ts';
import { checkUsState } from './formats/checkUsState.ts';
import type { LatamCountryCode, PaymentDetailField, PaymentDetailInput, PaymentRail } from './types.ts';

/** Why a given value is wrong, or undefined; it sees the whole input for rules that span fields. */
export type FieldCheck = (value: string, input: PaymentDetailInput) => string | undefined;

/** What one currency needs on one rail beyond the fields every payment detail needs. */
export interface RailRule {
  required: readonly PaymentDetailField[];
  requiredForIndividuals: readonly PaymentDetailField[];
  /** Groups of which at least one field must be given. */
  requiredOneOf: readonly (readonly [PaymentDetailField, ...PaymentDetailField[]])[];
  /** Checks that replace the any-currency check of the same field. */
  checks: Partial<Record<PaymentDetailField, FieldCheck>>;
  deprecated: boolean;
}

/** The rails a currency is paid over; Latam currencies also name the country whose bank list applies. */
export interface CurrencyRule {
  latamCountry?: LatamCountryCode;
  rails: Partial<Record<PaymentRail, RailRule>>;
}

/** Fields every payment detail needs, whatever its currency and rail. */
export const basePaymentDetailFields: readonly PaymentDetailField[] = [
  'account_name',
  'currency',
  'beneficiary_type',
  'bank_name',
  'address_line1',
  'city',
  'postal_code',
  'country',
];

function oneOf(values: readonly string[]): FieldCheck {
  return (value) => (values.includes(value) ? undefined : `must be one of: ${values.join(', ')}`);
}

function pattern(regex: RegExp, message: string): FieldCheck {
  return (value) => (regex.test(value) ? undefined : message);
}

/** Checks that apply to a field whatever the currency, unless the rail has its own. */
export const anyCurrencyChecks: Partial<Record<PaymentDetailField, FieldCheck>> = {
  country: checkCountryCode,
  state: (value, input) => (input.country === 'US' ? checkUsState(value) : undefined),
  beneficiary_type: oneOf(['individual', 'business']),
  routing_number: checkAbaRoutingNumber,
  sort_code: checkSortCode,
  iban: checkIban,
  swift_bic: checkBic,
  account_type: checkAccountType,
  bsb_number: checkBsb,
  ifsc: checkIfsc,
  phone: (value, input) => checkPhone(value, input.country ?? undefined),
  nationality: checkCountryCode,
  gender: oneOf(['o', 'm', 'f']),
};

function rail(rule: Partial<RailRule>): RailRule {
  return {
    required: [],
    requiredForIndividuals: [],
    requiredOneOf: [],
    checks: {},
    deprecated: false,
    ...rule,
  };
}

const sixTo25Digits = pattern(/^\d{6,25}$/, 'must be 6 to 25 digits');

function swiftOnly(required: readonly PaymentDetailField[], checks: RailRule['checks'] = {}): CurrencyRule {
  return { rails: { swift: rail({ required: ['swift_bic', ...required], checks }) } };
}

function documentType(individual: readonly string[], business: readonly string[]): FieldCheck {
  return (value, input) => {
    const [allowed, who] =
      input.beneficiary_type === 'individual'
        ? [individual, ' for an individual']
        : input.beneficiary_type === 'business'
          ? [business, ' for a business']
          : [[...individual, ...business], ''];
    return allowed.includes(value) ? undefined : `must be one of: ${allowed.join(', ')}${who}`;
  };
}

function latamBankName(country: LatamCountryCode): FieldCheck {
  return (value) => {
    const bank = findLatamBank(country, value);
    if (!bank) return `must be one of the ${country} names listed by latam_bank_names`;
    return bank.unreachable && `names ${bank.name.trim()}, which ${bank.unreachable}`;
  };
}

// The account number must start with the code of the bank named in bank_name, where that code is known.
function ofBank(country: LatamCountryCode, check: (value: string) => string | undefined): FieldCheck {
  return (value, input) => {
    const problem = check(value);
    if (problem) return problem;
    const bank = input.bank_name ? findLatamBank(country, input.bank_name) : undefined;
    if (!bank?.accountPrefix || value.startsWith(bank.accountPrefix)) return undefined;
    return `does not belong to ${bank.name.trim()}, whose account numbers start with ${bank.accountPrefix}`;
  };
}

// The number is checked by the rules of its document_type; an unknown or absent type is reported on document_type.
function documentNumber(checks: Readonly<Record<string, (value: string) => string | undefined>>): FieldCheck {
  return (value, input) => {
    const type = input.document_type;
    return type && Object.hasOwn(checks, type) ? checks[type]?.(value) : undefined;
  };
}

// CLP, COP over koywe, MXN and PEN share the partners' identity fields.
function latamRail(
  country: LatamCountryCode,
  required: readonly PaymentDetailField[],
  checks: RailRule['checks'],
): RailRule {
  return rail({
    required: [
      'account_number',
      ...required,
      'document_type',
      'document_number',
      'phone',
      'neighbourhood',
      'date_of_birth',
      'activity',
    ],
    requiredForIndividuals: ['nationality', 'gender'],
    checks: {
      bank_name: latamBankName(country),
      phone: (value) => checkPhone(value, country),
      nationality: oneOf(latamNationalities),
      ...checks,
    },
  });
}

/** Required fields and formats per currency and rail (shared/research/area-b-offramps.md §5–§6). */
export const paymentDetailRules: Readonly<Record<string, CurrencyRule>> = {
  usd: {
    rails: {
      // ACH and Fedwire carry at most 17 characters of account number.
      local: rail({
        required: ['account_number', 'routing_number'],
        checks: { account_number: pattern(/^[\da-zA-Z]{6,17}$/, 'must be 6 to 17 letters or digits') },
      }),
      wire: rail({
        required: ['account_number', 'routing_number'],
        checks: { account_number: pattern(/^[\da-zA-Z]{6,17}$/, 'must be 6 to 17 letters or digits') },
      }),
      // USD accounts abroad have no ABA number, and some only an IBAN.
      swift: rail({
        required: ['swift_bic'],
        requiredOneOf: [['account_number', 'iban']],
        checks: { account_number: pattern(/^[\da-zA-Z]{6,25}$/, 'must be 6 to 25 letters or digits') },
      }),
    },
  },
  eur: {
    rails: {
      // SEPA reaches only the countries and territories of its schemes; other IBANs go over swift.
      local: rail({ required: ['iban'], checks: { iban: checkSepaIban } }),
      swift: rail({ required: ['iban', 'swift_bic'] }),
    },
  },
  gbp: swiftOnly(['iban']),
  aed: swiftOnly(['iban']),
  chf: swiftOnly(['iban']),
  pln: swiftOnly(['iban']),
  aud: swiftOnly(['bsb_number', 'account_number'], { account_number: sixTo25Digits }),
  cad: swiftOnly(['bank_code', 'branch_code', 'account_number'], { account_number: sixTo25Digits }),
  cny: swiftOnly(['account_number'], { account_number: sixTo25Digits }),
  hkd: swiftOnly(['account_number', 'bank_code'], { account_number: sixTo25Digits }),
  idr: swiftOnly(['bank_code', 'account_number'], { account_number: sixTo25Digits }),
  inr: swiftOnly(['bank_code', 'account_number', 'ifsc'], { account_number: sixTo25Digits }),
  jpy: swiftOnly(['account_number'], { account_number: sixTo25Digits }),
  krw: swiftOnly(['account_number', 'bank_code'], { account_number: sixTo25Digits }),
  myr: swiftOnly(['account_number'], { account_number: sixTo25Digits }),
  nzd: swiftOnly(['account_number', 'ncc'], { account_number: sixTo25Digits }),
  php: swiftOnly(['account_number'], { account_number: sixTo25Digits }),
  sgd: swiftOnly(['account_number'], { account_number: sixTo25Digits }),
  thb: swiftOnly(['account_number'], { account_number: sixTo25Digits }),
  ars: {
    latamCountry: 'AR',
    rails: {
      local: rail({
        required: ['account_number', 'account_type', 'document_number'],
        checks: {
          bank_name: latamBankName('AR'),
          account_number: ofBank('AR', checkCbu),
          document_number: checkCuit,
        },
      }),
    },
  },
  clp: {
    latamCountry: 'CL',
    rails: {
      local: latamRail('CL', [], {
        account_number: sixTo25Digits,
        document_type: oneOf(['rut']),
        document_number: documentNumber({ rut: checkRut }),
      }),
    },
  },
  cop: {
    latamCountry: 'CO',
    rails: {
      koywe: latamRail('CO', ['account_type'], {
        account_number: sixTo25Digits,
        document_type: documentType(['ced_ciu', 'ced_ext'], ['nit']),
        document_number: documentNumber({
          ced_ciu: checkColombianCedula,
          ced_ext: checkColombianCedula,
          nit: checkNit,
        }),
      }),
      local: rail({
        deprecated: true,
        required: ['account_number', 'account_type', 'document_type', 'document_number', 'phone'],
        checks: {
          bank_name: latamBankName('CO'),
          account_number: sixTo25Digits,
          document_type: oneOf(['national_id', 'ruc', 'passport', 'resident_id']),
          document_number: pattern(/^\d{1,15}$/, 'must be 1 to 15 digits'),
          phone: (value) => checkPhone(value, 'CO'),
        },
      }),
    },
  },
  mxn: {
    latamCountry: 'MX',
    rails: {
      local: latamRail('MX', [], {
        account_number: ofBank('MX', checkClabe),
        document_type: documentType(['curp'], ['rfc']),
        document_number: documentNumber({ curp: checkCurp, rfc: checkRfc }),
      }),
    },
  },
  pen: {
    latamCountry: 'PE',
    rails: {
      local: latamRail('PE', [], {
        account_number: ofBank('PE', checkCci),
        document_type: documentType(['dni'], ['ruc']),
        document_number: documentNumber({ dni: checkPeruvianDni, ruc: checkRuc }),
      }),
    },
  },
};

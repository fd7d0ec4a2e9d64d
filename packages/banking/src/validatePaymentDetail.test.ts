import { describe, expect, it } from 'vitest';
import type { PaymentDetailInput } from './types.ts';
import { validatePaymentDetail } from './validatePaymentDetail.ts';

const holder = {
  account_name: 'Acme Supplies LLC',
  beneficiary_type: 'business',
  bank_name: 'JPMorgan Chase',
  address_line1: '383 Madison Avenue',
  city: 'New York',
  state: 'NY',
  postal_code: '10179',
  country: 'US',
} satisfies PaymentDetailInput;

const usdLocal = { ...holder, currency: 'usd', account_number: '000123456789', routing_number: '021000021' };
const eurLocal = {
  ...holder,
  state: null,
  country: 'DE',
  city: 'Berlin',
  postal_code: '10117',
  currency: 'eur',
  iban: 'DE89 3704 0044 0532 0130 00',
};

const latamPerson = {
  beneficiary_type: 'individual',
  phone: '+52 55 5140 4000',
  neighbourhood: 'Polanco',
  date_of_birth: '12/12/1985',
  activity: 'Software engineer',
  nationality: 'MX',
  gender: 'f',
};

const mxnLocal = {
  ...holder,
  ...latamPerson,
  account_name: 'María López',
  state: 'CDMX',
  country: 'MX',
  city: 'Ciudad de México',
  postal_code: '11560',
  currency: 'mxn',
  bank_name: 'BANAMEX',
  account_number: '002010077777777771',
  document_type: 'curp',
  document_number: 'BOXW310820HNERXN09',
};

const arsLocal = {
  ...holder,
  state: 'CABA',
  country: 'AR',
  city: 'Buenos Aires',
  postal_code: 'C1043',
  currency: 'ars',
  bank_name: 'Banco Macro S.A.',
  account_number: '2850590940090418135201',
  account_type: 'checking',
  document_number: '30703088534',
};

const clpLocal = {
  ...holder,
  ...latamPerson,
  state: 'RM',
  country: 'CL',
  city: 'Santiago',
  postal_code: '7500000',
  currency: 'clp',
  bank_name: 'Banco de Chile',
  account_number: '00123456789',
  document_type: 'rut',
  document_number: '12.345.678-5',
  phone: '+56 2 2345 6789',
  nationality: 'CL',
};

const copKoywe = {
  ...holder,
  ...latamPerson,
  state: 'Cundinamarca',
  country: 'CO',
  city: 'Bogotá',
  postal_code: '110111',
  currency: 'cop',
  rails: 'koywe',
  bank_name: 'Bancolombia',
  account_number: '12345678901',
  account_type: 'savings',
  document_type: 'ced_ciu',
  document_number: '1020304050',
  phone: '+57 300 1234567',
  nationality: 'CO',
};

const penLocal = {
  ...holder,
  ...latamPerson,
  state: 'Lima',
  country: 'PE',
  city: 'Lima',
  postal_code: '15001',
  currency: 'pen',
  bank_name: 'Banco de Crédito del Perú',
  account_number: '00219412967922501399',
  document_type: 'dni',
  document_number: '45678912',
  phone: '999 999 999',
  nationality: 'PE',
};

function errorsOf(input: PaymentDetailInput, options?: { requireFields?: boolean }) {
  return validatePaymentDetail(input, options).errors;
}

describe('validatePaymentDetail', () => {
  describe('valid details', () => {
    it.each([
      ['usd local (rails null)', { ...usdLocal, rails: null }],
      ['usd local', { ...usdLocal, rails: 'local' }],
      ['usd wire', { ...usdLocal, rails: 'wire' }],
      [
        'usd swift, account number',
        {
          ...holder,
          country: 'MX',
          state: null,
          currency: 'usd',
          rails: 'swift',
          swift_bic: 'BCMRMXMM',
          account_number: '0111112090',
        },
      ],
      ['usd swift, iban only', { ...eurLocal, currency: 'usd', rails: 'swift', swift_bic: 'DEUTDEFF' }],
      ['eur local (SEPA)', eurLocal],
      ['eur swift', { ...eurLocal, rails: 'swift', swift_bic: 'COBADEFFXXX' }],
      [
        'gbp (swift by default)',
        {
          ...eurLocal,
          country: 'GB',
          currency: 'gbp',
          iban: 'GB82WEST12345698765432',
          swift_bic: 'NWBKGB2L',
        },
      ],
      [
        'aud',
        {
          ...holder,
          country: 'AU',
          state: null,
          currency: 'aud',
          rails: 'swift',
          swift_bic: 'CTBAAU2S',
          bsb_number: '062-000',
          account_number: '12345678',
        },
      ],
      [
        'inr',
        {
          ...holder,
          country: 'IN',
          state: null,
          currency: 'inr',
          swift_bic: 'SBININBB',
          bank_code: 'SBIN',
          account_number: '31234567890',
          ifsc: 'SBIN0000300',
        },
      ],
      ['ars', arsLocal],
      [
        'ars to a Mercado Pago CVU',
        { ...arsLocal, bank_name: 'Mercado Pago', account_number: '0000003100028605363193' },
      ],
      ['clp, individual', clpLocal],
      [
        'clp, business',
        {
          ...clpLocal,
          beneficiary_type: 'business',
          nationality: null,
          gender: null,
          document_number: '97.004.000-5',
        },
      ],
      ['cop over koywe, individual', copKoywe],
      [
        'cop over koywe, business',
        {
          ...copKoywe,
          beneficiary_type: 'business',
          document_type: 'nit',
          document_number: '900.544.472-2',
          nationality: null,
          gender: null,
        },
      ],
      ['cop local (deprecated)', { ...copKoywe, rails: 'local', document_type: 'national_id' }],
      ['mxn, individual', mxnLocal],
      [
        'mxn, business',
        {
          ...mxnLocal,
          beneficiary_type: 'business',
          document_type: 'rfc',
          document_number: 'MAB9307148T4',
          nationality: null,
          gender: null,
        },
      ],
      [
        'mxn, bank name with its trailing space',
        { ...mxnLocal, bank_name: 'INVEX ', account_number: '059180000000000007' },
      ],
      [
        'mxn, the partner’s second Santander entry',
        { ...mxnLocal, bank_name: 'SANTANDER2', account_number: '014180000012345672' },
      ],
      ['pen', penLocal],
      [
        'pen, business',
        {
          ...penLocal,
          beneficiary_type: 'business',
          document_type: 'ruc',
          document_number: '20512333797',
          nationality: null,
          gender: null,
        },
      ],
    ] satisfies [string, PaymentDetailInput][])('%s', (_name, input) => {
      expect(validatePaymentDetail(input)).toEqual({ valid: true, errors: [] });
    });
  });

  describe('currency', () => {
    it('is required', () => {
      expect(errorsOf({ ...usdLocal, currency: undefined })).toEqual([
        { field: 'currency', message: 'is required' },
      ]);
    });

    it.each(['xyz', 'bob', 'xof', 'usdc', 'constructor', '__proto__', 'toString'])(
      'rejects %s',
      (currency) => {
        expect(errorsOf({ ...usdLocal, currency })).toEqual([
          {
            field: 'currency',
            message:
              'must be one of: aed, ars, aud, cad, chf, clp, cny, cop, eur, gbp, hkd, idr, inr, jpy, krw, mxn, myr, nzd, pen, php, pln, sgd, thb, usd',
          },
        ]);
      },
    );

    it('must be lower case, and the rules of that currency still apply', () => {
      expect(errorsOf({ ...eurLocal, currency: 'EUR', iban: undefined })).toEqual([
        { field: 'currency', message: 'must be the lower-case code eur' },
        { field: 'iban', message: 'is required' },
      ]);
    });

    it('still checks the fields every detail needs when the currency is unknown', () => {
      expect(errorsOf({ currency: 'xyz', iban: 'DE00370400440532013000' })).toEqual([
        { field: 'account_name', message: 'is required' },
        { field: 'currency', message: expect.stringMatching(/^must be one of: /) },
        { field: 'address_line1', message: 'is required' },
        { field: 'city', message: 'is required' },
        { field: 'postal_code', message: 'is required' },
        { field: 'country', message: 'is required' },
        { field: 'beneficiary_type', message: 'is required' },
        { field: 'bank_name', message: 'is required' },
        { field: 'iban', message: 'has wrong check digits' },
      ]);
    });
  });

  describe('rails', () => {
    it.each(['ach', 'SWIFT', 'sepa'])('rejects the unknown rail %s', (rails) => {
      expect(errorsOf({ ...usdLocal, rails })).toEqual([
        { field: 'rails', message: 'must be one of: local, swift, wire, koywe' },
      ]);
    });

    it.each([
      ['usd', 'koywe', 'must be one of: local, wire, swift for usd'],
      ['eur', 'wire', 'must be one of: local, swift for eur'],
      ['gbp', 'local', 'must be one of: swift for gbp'],
      ['ars', 'swift', 'must be one of: local for ars'],
      ['mxn', 'koywe', 'must be one of: local for mxn'],
    ])('rejects a rail %s is not paid over (%s)', (currency, rails, message) => {
      expect(errorsOf({ ...holder, currency, rails })).toContainEqual({ field: 'rails', message });
    });

    it('checks only what every detail needs when the rail is not offered', () => {
      expect(errorsOf({ ...holder, currency: 'eur', rails: 'wire' })).toEqual([
        { field: 'rails', message: 'must be one of: local, swift for eur' },
      ]);
    });

    it('treats blank rails as the default rail', () => {
      expect(validatePaymentDetail({ ...usdLocal, rails: '' }).valid).toBe(true);
      expect(validatePaymentDetail({ ...usdLocal, rails: '  ' }).valid).toBe(true);
    });
  });

  describe('required fields', () => {
    it('lists every missing field of the base set', () => {
      expect(errorsOf({ currency: 'eur', iban: 'DE89370400440532013000' })).toEqual([
        { field: 'account_name', message: 'is required' },
        { field: 'address_line1', message: 'is required' },
        { field: 'city', message: 'is required' },
        { field: 'postal_code', message: 'is required' },
        { field: 'country', message: 'is required' },
        { field: 'beneficiary_type', message: 'is required' },
        { field: 'bank_name', message: 'is required' },
      ]);
    });

    it.each([null, '', '   '])('counts %j as missing', (blank) => {
      expect(errorsOf({ ...usdLocal, account_name: blank, routing_number: blank })).toEqual([
        { field: 'account_name', message: 'is required' },
        { field: 'routing_number', message: 'is required' },
      ]);
    });

    // Each row: currency, rails, and the fields beyond the base set, from the partners' required-fields tables.
    it.each([
      ['usd', null, ['account_number', 'routing_number']],
      ['usd', 'local', ['account_number', 'routing_number']],
      ['usd', 'wire', ['account_number', 'routing_number']],
      ['usd', 'swift', ['account_number', 'swift_bic']],
      ['eur', null, ['iban']],
      ['eur', 'swift', ['iban', 'swift_bic']],
      ['gbp', null, ['iban', 'swift_bic']],
      ['aed', 'swift', ['iban', 'swift_bic']],
      ['chf', 'swift', ['iban', 'swift_bic']],
      ['pln', 'swift', ['iban', 'swift_bic']],
      ['aud', 'swift', ['account_number', 'swift_bic', 'bsb_number']],
      ['cad', 'swift', ['account_number', 'swift_bic', 'bank_code', 'branch_code']],
      ['cny', 'swift', ['account_number', 'swift_bic']],
      ['hkd', 'swift', ['account_number', 'swift_bic', 'bank_code']],
      ['idr', 'swift', ['account_number', 'swift_bic', 'bank_code']],
      ['inr', 'swift', ['account_number', 'swift_bic', 'bank_code', 'ifsc']],
      ['jpy', 'swift', ['account_number', 'swift_bic']],
      ['krw', 'swift', ['account_number', 'swift_bic', 'bank_code']],
      ['myr', 'swift', ['account_number', 'swift_bic']],
      ['nzd', 'swift', ['account_number', 'swift_bic', 'ncc']],
      ['php', 'swift', ['account_number', 'swift_bic']],
      ['sgd', 'swift', ['account_number', 'swift_bic']],
      ['thb', 'swift', ['account_number', 'swift_bic']],
      ['ars', null, ['account_number', 'document_number', 'account_type']],
      [
        'clp',
        null,
        [
          'account_number',
          'document_number',
          'document_type',
          'phone',
          'neighbourhood',
          'date_of_birth',
          'activity',
        ],
      ],
      [
        'cop',
        'koywe',
        [
          'account_number',
          'document_number',
          'document_type',
          'account_type',
          'phone',
          'neighbourhood',
          'date_of_birth',
          'activity',
        ],
      ],
      ['cop', null, ['account_number', 'document_number', 'document_type', 'account_type', 'phone']],
      [
        'mxn',
        null,
        [
          'account_number',
          'document_number',
          'document_type',
          'phone',
          'neighbourhood',
          'date_of_birth',
          'activity',
        ],
      ],
      [
        'pen',
        null,
        [
          'account_number',
          'document_number',
          'document_type',
          'phone',
          'neighbourhood',
          'date_of_birth',
          'activity',
        ],
      ],
    ])('%s over %s needs %j', (currency, rails, fields) => {
      const errors = errorsOf({ ...holder, beneficiary_type: 'business', currency, rails });
      expect(errors.filter((e) => e.message.startsWith('is required')).map((e) => e.field)).toEqual(fields);
    });

    it.each(['clp', 'mxn', 'pen'])('%s needs nationality and gender from individuals', (currency) => {
      const missing = errorsOf({ ...holder, beneficiary_type: 'individual', currency }).map((e) => e.field);
      expect(missing).toContain('nationality');
      expect(missing).toContain('gender');
    });

    it('cop over koywe needs nationality and gender from individuals, but not over local', () => {
      const koywe = errorsOf({ ...copKoywe, nationality: undefined, gender: undefined });
      expect(koywe).toEqual([
        { field: 'nationality', message: 'is required' },
        { field: 'gender', message: 'is required' },
      ]);
      expect(
        errorsOf({
          ...copKoywe,
          rails: 'local',
          document_type: 'passport',
          nationality: undefined,
          gender: undefined,
        }),
      ).toEqual([]);
    });

    it('usd over swift takes an iban in place of the account number', () => {
      const swift = { ...holder, currency: 'usd', rails: 'swift', swift_bic: 'CHASUS33' };
      expect(errorsOf(swift)).toEqual([
        { field: 'account_number', message: 'is required unless iban is given' },
      ]);
      expect(errorsOf({ ...swift, iban: 'GB82WEST12345698765432' })).toEqual([]);
      expect(errorsOf({ ...swift, account_number: '123456789012345678901' })).toEqual([]);
    });

    it('needs state when the country is US, and only then', () => {
      expect(errorsOf({ ...usdLocal, state: undefined })).toEqual([
        { field: 'state', message: 'is required' },
      ]);
      expect(errorsOf({ ...eurLocal, state: undefined })).toEqual([]);
    });

    it('reports only formats when requireFields is false', () => {
      expect(validatePaymentDetail({}, { requireFields: false })).toEqual({ valid: true, errors: [] });
      expect(
        errorsOf({ currency: 'mxn', account_number: '002010077777777772' }, { requireFields: false }),
      ).toEqual([{ field: 'account_number', message: 'has a wrong check digit' }]);
    });
  });

  describe('formats on any currency', () => {
    it.each([
      ['country', 'USA', 'must be an ISO 3166-1 alpha-2 country code such as US'],
      ['beneficiary_type', 'person', 'must be one of: individual, business'],
      ['routing_number', '021000022', 'has a wrong check digit'],
      ['sort_code', '20-000', 'must be 6 digits, optionally written 12-34-56'],
      ['iban', 'DE89370400440532013001', 'has wrong check digits'],
      ['swift_bic', 'CHASZZ33', 'has ZZ as its country, which is not a country code'],
      ['account_type', 'current', 'must be one of: checking, savings'],
      ['bsb_number', '06200', 'must be 6 digits, optionally written 123-456'],
      ['ifsc', 'SBIN1000300', 'must be 11 characters: a 4-letter bank code, 0, then 6 letters or digits'],
      ['phone', '555 0100', 'must be a valid phone number of US, or in international form (+1…)'],
      ['nationality', 'XX', 'must be an ISO 3166-1 alpha-2 country code such as US'],
      ['gender', 'x', 'must be one of: o, m, f'],
      ['state', 'New York', 'must be a two-letter US state code such as CA'],
    ])('checks %s', (field, value, message) => {
      expect(errorsOf({ ...usdLocal, [field]: value })).toEqual([{ field, message }]);
    });

    it('accepts any state outside the US', () => {
      expect(errorsOf({ ...eurLocal, state: 'Berlin' })).toEqual([]);
    });

    it('accepts optional fields that are well formed', () => {
      expect(
        errorsOf({
          ...usdLocal,
          sort_code: '20-00-00',
          account_type: 'savings',
          phone: '+1 212 270 6000',
          gender: 'o',
        }),
      ).toEqual([]);
    });
  });

  describe('usd', () => {
    it('limits local and wire account numbers to 17 characters, swift ones to 25', () => {
      const long = '123456789012345678';
      const message = 'must be 6 to 17 letters or digits';
      expect(errorsOf({ ...usdLocal, account_number: long })).toEqual([{ field: 'account_number', message }]);
      expect(errorsOf({ ...usdLocal, rails: 'wire', account_number: '12345' })).toEqual([
        { field: 'account_number', message },
      ]);
      expect(errorsOf({ ...usdLocal, account_number: 'AB12-3456' })).toEqual([
        { field: 'account_number', message },
      ]);
      const swift = { ...usdLocal, rails: 'swift', swift_bic: 'CHASUS33' };
      expect(errorsOf({ ...swift, account_number: long })).toEqual([]);
      expect(errorsOf({ ...swift, account_number: '12345678901234567890123456' })).toEqual([
        { field: 'account_number', message: 'must be 6 to 25 letters or digits' },
      ]);
    });
  });

  describe('swift currencies', () => {
    it.each(['aud', 'cad', 'cny', 'hkd', 'idr', 'inr', 'jpy', 'krw', 'myr', 'nzd', 'php', 'sgd', 'thb'])(
      '%s account numbers are 6 to 25 digits',
      (currency) => {
        const errors = errorsOf(
          { ...holder, currency, account_number: '12345-678' },
          { requireFields: false },
        );
        expect(errors).toEqual([{ field: 'account_number', message: 'must be 6 to 25 digits' }]);
      },
    );
  });

  describe('ars', () => {
    it('needs a bank name from the AR list', () => {
      expect(errorsOf({ ...arsLocal, bank_name: 'Banco Macro' })).toEqual([
        { field: 'bank_name', message: 'must be one of the AR names listed by latam_bank_names' },
      ]);
    });

    it('checks the CBU, the CUIT and the account type', () => {
      expect(
        errorsOf({
          ...arsLocal,
          account_number: '2850590940090418135202',
          document_number: '30-70308853-5',
          account_type: 'cuenta corriente',
        }),
      ).toEqual([
        { field: 'account_number', message: 'has a wrong check digit in its account block (22nd digit)' },
        { field: 'document_number', message: 'has a wrong check digit' },
        { field: 'account_type', message: 'must be one of: checking, savings' },
      ]);
    });

    it('checks that the CBU belongs to the chosen bank', () => {
      expect(errorsOf({ ...arsLocal, bank_name: 'Banco de Galicia y Buenos Aires S.A.U.' })).toEqual([
        {
          field: 'account_number',
          message:
            'does not belong to Banco de Galicia y Buenos Aires S.A.U., whose account numbers start with 007',
        },
      ]);
      expect(errorsOf({ ...arsLocal, bank_name: 'Mercado Pago' })).toEqual([
        {
          field: 'account_number',
          message: 'does not belong to Mercado Pago, whose account numbers start with 00000031',
        },
      ]);
      expect(errorsOf({ ...arsLocal, bank_name: 'Naranja Digital Compañía Financiera S.A.U.' })).toEqual([]);
    });
  });

  describe('clp', () => {
    it('checks the RUT, document type, nationality list and phone of Chile', () => {
      expect(
        errorsOf({
          ...clpLocal,
          document_number: '12.345.678-5',
          document_type: 'dni',
          nationality: 'ES',
          phone: '2345 678',
        }),
      ).toEqual([
        { field: 'document_type', message: 'must be one of: rut' },
        { field: 'phone', message: 'must be a valid phone number of CL, or in international form (+56…)' },
        { field: 'nationality', message: expect.stringMatching(/^must be one of: AG, AR, BS, .*, VG, VI$/) },
      ]);
    });

    it('accepts every listed nationality, including the retired AN', () => {
      expect(errorsOf({ ...clpLocal, nationality: 'AN' })).toEqual([]);
      expect(errorsOf({ ...clpLocal, nationality: 'US' })).toEqual([]);
    });

    it('needs a bank name from the CL list', () => {
      expect(errorsOf({ ...clpLocal, bank_name: 'BANAMEX' })).toEqual([
        { field: 'bank_name', message: 'must be one of the CL names listed by latam_bank_names' },
      ]);
    });
  });

  describe('cop', () => {
    it('takes the document type of the beneficiary type over koywe', () => {
      expect(errorsOf({ ...copKoywe, document_type: 'nit', document_number: '9005444722' })).toEqual([
        { field: 'document_type', message: 'must be one of: ced_ciu, ced_ext for an individual' },
      ]);
      expect(errorsOf({ ...copKoywe, beneficiary_type: 'business', document_type: 'ced_ext' })).toEqual([
        { field: 'document_type', message: 'must be one of: nit for a business' },
      ]);
      expect(errorsOf({ ...copKoywe, beneficiary_type: 'trust', document_type: 'passport' })).toEqual([
        { field: 'beneficiary_type', message: 'must be one of: individual, business' },
        { field: 'document_type', message: 'must be one of: ced_ciu, ced_ext, nit' },
      ]);
    });

    it('checks the deprecated local rail after its own table', () => {
      expect(
        errorsOf({
          ...copKoywe,
          rails: 'local',
          document_type: 'ced_ciu',
          document_number: '1020304050123456',
          account_number: '12345',
        }),
      ).toEqual([
        { field: 'account_number', message: 'must be 6 to 25 digits' },
        { field: 'document_number', message: 'must be 1 to 15 digits' },
        { field: 'document_type', message: 'must be one of: national_id, ruc, passport, resident_id' },
      ]);
    });

    it('needs a bank name from the CO list on either rail', () => {
      const message = {
        field: 'bank_name',
        message: 'must be one of the CO names listed by latam_bank_names',
      };
      expect(errorsOf({ ...copKoywe, bank_name: 'Bancolombia S.A.' })).toEqual([message]);
      expect(
        errorsOf({ ...copKoywe, rails: 'local', document_type: 'passport', bank_name: 'Bancolombia S.A.' }),
      ).toEqual([message]);
    });
  });

  describe('latam account numbers and phones', () => {
    it.each([
      ['clp', clpLocal],
      ['cop over koywe', copKoywe],
    ])('%s account numbers are 6 to 25 digits', (_name, input) => {
      expect(errorsOf({ ...input, account_number: '0012-345678' })).toEqual([
        { field: 'account_number', message: 'must be 6 to 25 digits' },
      ]);
      expect(errorsOf({ ...input, account_number: '12345' })).toEqual([
        { field: 'account_number', message: 'must be 6 to 25 digits' },
      ]);
    });

    it('reads a national phone number as Colombian on either rail', () => {
      const local = { ...copKoywe, rails: 'local', document_type: 'passport' };
      expect(errorsOf({ ...copKoywe, phone: '300 1234567' })).toEqual([]);
      expect(errorsOf({ ...local, phone: '300 1234567' })).toEqual([]);
      expect(errorsOf({ ...local, phone: '12' })).toEqual([
        { field: 'phone', message: 'must be a valid phone number of CO, or in international form (+57…)' },
      ]);
    });
  });

  describe('mxn', () => {
    it('checks the CLABE', () => {
      expect(errorsOf({ ...mxnLocal, account_number: '002010077777777772' })).toEqual([
        { field: 'account_number', message: 'has a wrong check digit' },
      ]);
      expect(errorsOf({ ...mxnLocal, account_number: '0020100777777777' })).toEqual([
        { field: 'account_number', message: 'must be an 18-digit CLABE' },
      ]);
    });

    it('checks that the CLABE belongs to the chosen bank', () => {
      expect(errorsOf({ ...mxnLocal, bank_name: 'BBVA BANCOMER' })).toEqual([
        {
          field: 'account_number',
          message: 'does not belong to BBVA BANCOMER, whose account numbers start with 012',
        },
      ]);
      expect(
        errorsOf({ ...mxnLocal, bank_name: 'BBVA BANCOMER', account_number: '012180004424133881' }),
      ).toEqual([]);
    });

    it('matches bank names regardless of case and surrounding whitespace', () => {
      for (const name of ['INVEX', 'INVEX ', ' invex\t', 'Invex\u00a0']) {
        expect(errorsOf({ ...mxnLocal, bank_name: name, account_number: '059180000000000007' })).toEqual([]);
      }
      expect(errorsOf({ ...mxnLocal, bank_name: 'Banamex' })).toEqual([]);
      expect(errorsOf({ ...mxnLocal, bank_name: 'BANAMEX MEXICO' })).toEqual([
        { field: 'bank_name', message: 'must be one of the MX names listed by latam_bank_names' },
      ]);
    });

    it('takes curp from individuals and rfc from businesses', () => {
      expect(errorsOf({ ...mxnLocal, document_type: 'rfc', document_number: 'GODE561231GR8' })).toEqual([
        { field: 'document_type', message: 'must be one of: curp for an individual' },
      ]);
      expect(errorsOf({ ...mxnLocal, beneficiary_type: 'business', document_type: 'curp' })).toEqual([
        { field: 'document_type', message: 'must be one of: rfc for a business' },
      ]);
    });

    it('reads a national phone number as Mexican', () => {
      expect(errorsOf({ ...mxnLocal, phone: '55 5140 4000' })).toEqual([]);
      expect(errorsOf({ ...mxnLocal, phone: '12345' })).toEqual([
        { field: 'phone', message: 'must be a valid phone number of MX, or in international form (+52…)' },
      ]);
    });
  });

  describe('pen', () => {
    it('checks the CCI and that it belongs to the chosen bank', () => {
      expect(errorsOf({ ...penLocal, account_number: '00219412967922501398' })).toEqual([
        { field: 'account_number', message: 'has wrong check digits' },
      ]);
      expect(errorsOf({ ...penLocal, bank_name: 'Interbank' })).toEqual([
        {
          field: 'account_number',
          message: 'does not belong to Interbank, whose account numbers start with 003',
        },
      ]);
      expect(
        errorsOf({ ...penLocal, bank_name: 'Interbank', account_number: '00320001312661595237' }),
      ).toEqual([]);
    });

    it('takes dni from individuals and ruc from businesses', () => {
      expect(errorsOf({ ...penLocal, document_type: 'ruc', document_number: '20480977239' })).toEqual([
        { field: 'document_type', message: 'must be one of: dni for an individual' },
      ]);
    });
  });

  it('lists every problem at once, grouped in field order', () => {
    const result = validatePaymentDetail({
      currency: 'ARS',
      rails: null,
      account_name: 'Lucía Fernández',
      account_number: '0070081830004110591452',
      country: 'ar',
      beneficiary_type: 'individual',
      bank_name: 'Galicia',
      document_number: '27123456781',
      account_type: 'savings',
      iban: 'AR00',
      swift_bic: 'GAL',
      address_line1: '',
      city: 'Buenos Aires',
    });
    expect(result).toEqual({
      valid: false,
      errors: [
        { field: 'account_number', message: 'has a wrong check digit in its account block (22nd digit)' },
        { field: 'currency', message: 'must be the lower-case code ars' },
        { field: 'address_line1', message: 'is required' },
        { field: 'postal_code', message: 'is required' },
        { field: 'country', message: 'must be an ISO 3166-1 alpha-2 country code such as US' },
        { field: 'bank_name', message: 'must be one of the AR names listed by latam_bank_names' },
        {
          field: 'iban',
          message:
            'must be an IBAN: a country code, two check digits, then the account in letters and digits',
        },
        {
          field: 'swift_bic',
          message:
            'must be 8 or 11 characters: 4-letter bank code, 2-letter country code, 2-character location, optional 3-character branch',
        },
        { field: 'document_number', message: 'has a wrong check digit' },
      ],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { supportedPaymentRails } from './supportedPaymentRails.ts';
import { validatePaymentDetail } from './validatePaymentDetail.ts';

describe('supportedPaymentRails', () => {
  it('lists the currencies and rails of the partners’ rail availability table', () => {
    const rows = supportedPaymentRails.map((row) =>
      [
        row.currency,
        row.rail,
        row.isDefault && 'default',
        row.deprecated && 'deprecated',
        row.bankNamesCountry,
      ]
        .filter(Boolean)
        .join(' '),
    );
    expect(rows).toEqual([
      'usd local default',
      'usd wire',
      'usd swift',
      'eur local default',
      'eur swift',
      'gbp swift default',
      'aed swift default',
      'chf swift default',
      'pln swift default',
      'aud swift default',
      'cad swift default',
      'cny swift default',
      'hkd swift default',
      'idr swift default',
      'inr swift default',
      'jpy swift default',
      'krw swift default',
      'myr swift default',
      'nzd swift default',
      'php swift default',
      'sgd swift default',
      'thb swift default',
      'ars local default AR',
      'clp local default CL',
      'cop koywe CO',
      'cop local default deprecated CO',
      'mxn local default MX',
      'pen local default PE',
    ]);
  });

  it('starts every required list with the fields every detail needs', () => {
    for (const row of supportedPaymentRails) {
      expect(row.requiredFields.slice(0, 8)).toEqual([
        'account_name',
        'currency',
        'beneficiary_type',
        'bank_name',
        'address_line1',
        'city',
        'postal_code',
        'country',
      ]);
    }
  });

  it.each(supportedPaymentRails.map((row) => [row.currency, row.rail, row]))(
    'documents what the validator asks of %s over %s',
    (currency, rail, row) => {
      const { errors } = validatePaymentDetail({ currency, rails: rail, beneficiary_type: 'individual' });
      const required = errors.filter((e) => e.message.startsWith('is required')).map((e) => e.field);
      const expected = [
        ...row.requiredFields.filter((field) => field !== 'currency' && field !== 'beneficiary_type'),
        ...row.requiredForIndividuals,
        ...row.requiredOneOf.map((group) => group[0]),
      ];
      expect(required.sort()).toEqual(expected.sort());
    },
  );
});

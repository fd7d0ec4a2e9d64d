import { describe, expect, it } from 'vitest';
import { canonicalPaymentDetail } from './canonicalPaymentDetail.ts';

describe('canonicalPaymentDetail', () => {
  it('writes an IBAN and a BIC upper case without separators, whatever whitespace was pasted', () => {
    expect(
      canonicalPaymentDetail({
        currency: 'eur',
        iban: '  de89-3704-0044-0532-0130-00 ',
        swift_bic: ' coba de ff xxx\t',
      }),
    ).toEqual({ currency: 'eur', iban: 'DE89370400440532013000', swift_bic: 'COBADEFFXXX' });
    expect(canonicalPaymentDetail({ iban: 'DE89\u00a03704\t0044.0532\u20110130 00' }).iban).toBe(
      'DE89370400440532013000',
    );
  });

  it('writes ABA routing numbers, sort codes and BSBs as digits', () => {
    expect(
      canonicalPaymentDetail({
        routing_number: ' 021-000-021 ',
        sort_code: '20-00-00',
        bsb_number: '062 000',
      }),
    ).toEqual({ routing_number: '021000021', sort_code: '200000', bsb_number: '062000' });
  });

  it.each([
    ['ars', '2850 5909-4009 0418 1352 01', '2850590940090418135201'],
    ['mxn', '002 010 07777777777 1', '002010077777777771'],
    ['pen', '002-194-129679225013-99', '00219412967922501399'],
    // Other account numbers carry no bank code: only trimmed.
    ['usd', ' 0001 2345 ', '0001 2345'],
  ])('writes %s account numbers %s as %s', (currency, typed, canonical) => {
    expect(canonicalPaymentDetail({ currency, account_number: typed }).account_number).toBe(canonical);
  });

  it.each([
    ['ars', undefined, '20-26756539-3', '20267565393'],
    ['ars', undefined, ' 20.26756539.3 ', '20267565393'],
    ['clp', 'rut', '12.450.547-k', '12450547K'],
    ['mxn', 'curp', ' boxw310820hnerxn09 ', 'BOXW310820HNERXN09'],
    ['mxn', 'rfc', 'GODE 561231 GR8', 'GODE561231GR8'],
    ['pen', 'ruc', '20512333797', '20512333797'],
    ['cop', 'nit', '900.544.472-2', '9005444722'],
    ['cop', 'ced_ciu', '1.020.304.050', '1020304050'],
    // The DNI card prints a check character after the number, a digit or, on cards printed before 2007, a letter:
    // a right one is dropped, a wrong one kept for the check.
    ['pen', 'dni', '10117410-2', '10117410'],
    ['pen', 'dni', '10117410-G', '10117410'],
    ['pen', 'dni', '10117410 g', '10117410'],
    ['pen', 'dni', '10117410-3', '101174103'],
    ['pen', 'dni', '10117410-J', '10117410J'],
  ])('writes a %s %s document number %s as %s', (currency, documentType, typed, canonical) => {
    const detail = canonicalPaymentDetail({ currency, document_type: documentType, document_number: typed });
    expect(detail.document_number).toBe(canonical);
  });

  it('names a listed bank exactly as listed, trailing space included', () => {
    expect(canonicalPaymentDetail({ currency: 'mxn', bank_name: ' invex' }).bank_name).toBe('INVEX ');
    expect(canonicalPaymentDetail({ currency: 'ars', bank_name: 'BANCO MACRO S.A.' }).bank_name).toBe(
      'Banco Macro S.A.',
    );
    expect(canonicalPaymentDetail({ currency: 'usd', bank_name: ' JPMorgan Chase ' }).bank_name).toBe(
      'JPMorgan Chase',
    );
    expect(canonicalPaymentDetail({ currency: 'mxn', bank_name: 'Not a bank ' }).bank_name).toBe(
      'Not a bank',
    );
  });

  it('trims every other field and leaves null and absent fields alone', () => {
    expect(
      canonicalPaymentDetail({ account_name: '  Acme  ', city: '\tBerlin\u00a0', address_line2: null }),
    ).toEqual({ account_name: 'Acme', city: 'Berlin', address_line2: null });
  });

  it('gives the same result when applied twice', () => {
    const typed = {
      currency: 'pen',
      document_type: 'dni',
      document_number: '10117410-2',
      account_number: '002-194-129679225013-99',
      bank_name: 'banco de crédito del perú',
    };
    const once = canonicalPaymentDetail(typed);
    expect(canonicalPaymentDetail(once)).toEqual(once);
  });
});

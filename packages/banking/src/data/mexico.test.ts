import { describe, expect, it } from 'vitest';
import { validatePaymentDetail } from '../validatePaymentDetail.ts';
import { mexicoBanks } from './mexico.ts';

/** A valid CLABE of the bank with SPEI code `code` (plaza 180, Mexico City). */
function clabeOf(code: string): string {
  const body = `${code}18000001234567`;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(body[i]) * ([3, 7, 1][i % 3] ?? 0)) % 10;
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const mxnDetail = {
  account_name: 'Comercializadora Norte SA de CV',
  beneficiary_type: 'business',
  address_line1: 'Av. Paseo de la Reforma 505',
  city: 'Ciudad de México',
  postal_code: '06500',
  country: 'MX',
  currency: 'mxn',
  document_type: 'rfc',
  document_number: 'MAB9307148T4',
  phone: '+52 55 5140 4000',
  neighbourhood: 'Cuauhtémoc',
  date_of_birth: '14/07/1993',
  activity: 'Wholesale',
};

const withCode = mexicoBanks.filter((bank) => bank.code !== undefined);

describe('Mexican banks', () => {
  it('give every listed name a SPEI code but the four no Banxico participant matches', () => {
    expect(mexicoBanks.filter((bank) => bank.code === undefined).map((bank) => bank.name)).toEqual([
      'SANTANDER2',
      'BBVA BANCOMER2',
      'HSBC2',
      'OPM',
    ]);
    for (const bank of withCode) expect(bank.accountPrefix).toBe(bank.code);
  });

  it.each(withCode.map((bank) => [bank.name, bank.code ?? '']))(
    'accept a CLABE of %s (%s) and refuse one of another bank',
    (name, code) => {
      const own = clabeOf(code);
      expect(validatePaymentDetail({ ...mxnDetail, bank_name: name, account_number: own })).toEqual({
        valid: true,
        errors: [],
      });
      const other = code === '002' ? '012' : '002';
      expect(
        validatePaymentDetail({ ...mxnDetail, bank_name: name, account_number: clabeOf(other) }).errors,
      ).toEqual([
        {
          field: 'account_number',
          message: `does not belong to ${name.trim()}, whose account numbers start with ${code}`,
        },
      ]);
    },
  );

  it('agree with stdnum on the codes both list under the same name', () => {
    // stdnum's list dates from 2017; names that changed since (AKALA → NU MEXICO…) are not compared.
    const stdnumCodes: Record<string, string> = {
      BANAMEX: '002',
      'BBVA BANCOMER': '012',
      SANTANDER: '014',
      HSBC: '021',
      INBURSA: '036',
      MIFEL: '042',
      SCOTIABANK: '044',
      BANREGIO: '058',
      BANSI: '060',
      AFIRME: '062',
      BANORTE: '072',
      'AMERICAN EXPRESS': '103',
      'JP MORGAN': '110',
      BMONEX: '112',
      'VE POR MAS': '113',
      DEUTSCHE: '124',
      'CREDIT SUISSE': '126',
      AZTECA: '127',
      AUTOFIN: '128',
      BARCLAYS: '129',
      COMPARTAMOS: '130',
      BANCOPPEL: '137',
      'ABC CAPITAL': '138',
      VOLKSWAGEN: '141',
      CIBANCO: '143',
      BBASE: '145',
      BANKAOOL: '147',
      PAGATODO: '148',
      BANCREA: '152',
      SABADELL: '156',
      MONEXCB: '600',
      GBM: '601',
      VECTOR: '608',
      FINAMEX: '616',
      VALMEX: '617',
      FINCOMUN: '634',
      'HDI SEGUROS': '636',
      REFORMA: '642',
      STP: '646',
      EVERCORE: '648',
      KUSPIT: '653',
      UNAGRA: '656',
      LIBERTAD: '670',
      CLS: '901',
      INDEVAL: '902',
    };
    for (const [name, code] of Object.entries(stdnumCodes)) {
      expect([name, mexicoBanks.find((bank) => bank.name === name)?.code]).toEqual([name, code]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { validatePaymentDetail } from '../validatePaymentDetail.ts';
import { mexicoBanks } from './mexico.ts';
import { speiParticipants } from './speiParticipants.ts';

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

const reachable = mexicoBanks.filter((bank) => !bank.unreachable);
const leftSpei = mexicoBanks.filter((bank) => bank.unreachable);

describe('Mexican banks', () => {
  it("give every name that SPEI still reaches the code of a participant on Banxico's list", () => {
    for (const bank of reachable) {
      expect([bank.name, speiParticipants.has(bank.code ?? '')]).toEqual([bank.name, true]);
      expect(bank.accountPrefix).toBe(bank.code);
    }
    // The partner's second entries and OPM carry the code of the bank they name.
    const codeOf = (name: string) => mexicoBanks.find((bank) => bank.name === name)?.code;
    expect(['SANTANDER2', 'BBVA BANCOMER2', 'HSBC2', 'OPM'].map(codeOf)).toEqual([
      '014',
      '012',
      '021',
      '684',
    ]);
    expect(speiParticipants.get('684')).toBe('Transfer');
  });

  it('mark the eleven names of the partner list whose code Banxico no longer lists', () => {
    expect(leftSpei.map((bank) => `${bank.name} ${bank.code}`)).toEqual([
      'ACCENDO BANCO 102',
      'AMERICAN EXPRESS 103',
      'CREDIT SUISSE 126',
      'ESTRUCTURADORES 606',
      'VECTOR 608',
      'MULTIVA CBOLSA 613',
      'HDI SEGUROS 636',
      'REFORMA 642',
      'EVERCORE 648',
      'INVERCAP 686',
      'ZURICH 627',
    ]);
    for (const bank of leftSpei) expect(speiParticipants.has(bank.code ?? '')).toBe(false);
  });

  it("name every participant of Banxico's list but its own accounts and CoDi Valida", () => {
    const listed = new Set(reachable.map((bank) => bank.code));
    expect([...speiParticipants.keys()].filter((code) => !listed.has(code))).toEqual(['001', '903']);
  });

  it.each(leftSpei.map((bank) => [bank.name, bank.code ?? '']))(
    'refuse %s, which has left SPEI, and a CLABE with its code %s',
    (name, code) => {
      expect(
        validatePaymentDetail({ ...mxnDetail, bank_name: name, account_number: clabeOf(code) }).errors,
      ).toEqual([
        {
          field: 'account_number',
          message: `starts with ${code}, the code of no SPEI participant on Banxico's list: no bank SPEI pays into holds it`,
        },
        {
          field: 'bank_name',
          message: `names ${name}, which has left SPEI (Banxico's participant list no longer has its code ${code}), so no MXN payout can reach it`,
        },
      ]);
    },
  );

  it('refuse a CLABE of no bank for a name that had no code before (999…, BBVA BANCOMER2)', () => {
    expect(
      validatePaymentDetail({
        ...mxnDetail,
        bank_name: 'BBVA BANCOMER2',
        account_number: '999000000000000014',
      }).errors,
    ).toEqual([
      {
        field: 'account_number',
        message:
          "starts with 999, the code of no SPEI participant on Banxico's list: no bank SPEI pays into holds it",
      },
    ]);
  });

  it.each(reachable.map((bank) => [bank.name, bank.code ?? '']))(
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
    // stdnum's list dates from 2017; names that changed since (AKALA → NU MEXICO…) are not compared. Names that
    // have left SPEI keep their former code.
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

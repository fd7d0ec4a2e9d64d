/**
 * Published identifiers with the verdict of their registry or reference library, for `npm run bench:identifiers`.
 * Each case is a payment detail (currency, rail, bank or document type) with one field under test; the service
 * agrees when it accepts or refuses the detail as the source does, names that field when it refuses, and stores
 * the canonical form given in `stored`.
 *
 * Sources: the SWIFT IBAN Registry (ISO 13616, release 101) for registry members and example IBANs; schwifty's
 * national checksums (python, `IBAN(…, validate_bban=True)`) for national check digits; the EPC list of SEPA
 * countries; SIX's Swiss Implementation Guidelines for the QR-bill for QR-IBANs; the `clabe` library (python,
 * Banxico's SPEI participant list) for CLABE bank codes; python-stdnum's `pe.cui` and `mx.rfc` for the
 * Peruvian DNI and the Mexican RFC. Altered numbers (`…, changed`) keep a valid IBAN check: only the national
 * check digit is wrong.
 */
import { canonicalPaymentDetail, type PaymentDetailInput, validatePaymentDetail } from '@checkout/banking';

interface PublishedCase {
  identifier: string;
  /** The detail around the value: currency, rail, bank or document type. */
  detail: PaymentDetailInput;
  field: 'iban' | 'account_number' | 'document_number';
  value: string;
  accepted: boolean;
  /** The canonical form the service must store, where the source gives one. */
  stored?: string;
  source: string;
}

const sepa = { currency: 'eur', rails: 'local' };
const eurSwift = { currency: 'eur', rails: 'swift' };
const chfSwift = { currency: 'chf', rails: 'swift' };
const registry = 'SWIFT IBAN Registry example';
const schwifty = 'schwifty national checksum';

function ibans(
  identifier: string,
  detail: PaymentDetailInput,
  source: string,
  rows: [string, boolean][],
): PublishedCase[] {
  return rows.map(([value, accepted]) => ({ identifier, detail, field: 'iban', value, accepted, source }));
}

function clabes(rows: [string, string, boolean][]): PublishedCase[] {
  return rows.map(([bank, value, accepted]) => ({
    identifier: 'CLABE (mxn, with its bank)',
    detail: { currency: 'mxn', bank_name: bank },
    field: 'account_number',
    value,
    accepted,
    source: 'clabe (Banxico participants)',
  }));
}

function documents(
  identifier: string,
  detail: PaymentDetailInput,
  source: string,
  rows: [string, boolean, string?][],
): PublishedCase[] {
  return rows.map(([value, accepted, stored]) => ({
    identifier,
    detail,
    field: 'document_number',
    value,
    accepted,
    ...(stored === undefined ? {} : { stored }),
    source,
  }));
}

const publishedCases: PublishedCase[] = [
  ...ibans('IBAN over SEPA (eur local)', sepa, `${registry}; EPC SEPA list`, [
    ['RS35260005601001611379', true],
    ['AL47212110090000000235698741', true],
    ['MD24AG000225100013104168', true],
    ['DE89370400440532013000', true],
    ['AE070331234567890123456', false],
    ['TR330006100519786457841326', false],
  ]),
  ...ibans('IBAN national check digit', eurSwift, `${registry}; ${schwifty}`, [
    ['IT60X0542811101000000123456', true],
    ['IT64Y0542811101000000123456', false],
    ['SM86U0322509800000000270100', true],
    ['SM06A0322509800000000270100', false],
    ['FI2112345600000785', true],
    ['FI9112345600000786', false],
    ['IS140159260076545510730339', true],
    ['IS350159260076545510730349', false],
    ['TL380080012345678910157', true],
    ['TL110080012345678910158', false],
    ['TN5910006035183598478831', true],
    ['TN3210006035183598478832', false],
    ['MR1300020001010000123456753', true],
    ['MR8300020001010000123456754', false],
    ['FR1420041010050500013M02606', true],
    ['BE68539007547034', true],
  ]),
  ...ibans('IBAN, QR-IBAN refused', chfSwift, 'SIX QR-bill guidelines (QR-IID 30000–31999)', [
    ['CH4431999123000889012', false],
    ['LI10300000002324013AA', false],
    ['CH9300762011623852957', true],
    ['LI21088100002324013AA', true],
  ]),
  ...ibans('IBAN, ISO 13616 registry members', eurSwift, `${registry}; python-stdnum iban`, [
    ['IR790120000000003011234567', false],
    ['DZ930002123456789012345600', false],
    ['AO06004400006729503010102', false],
    ['CI93CI0080111301134291200589', false],
    ['MA64011519000001205000534921', false],
    ['SN08SN0100152000048500003035', false],
    ['BI4210000100010000332045181', true],
    ['DJ2100010000000154000100186', true],
    ['FK88SC123456789012', true],
    ['HN88CABF00000000000250005469', true],
  ]),
  ...clabes([
    ['BANAMEX', '002010077777777771', true],
    ['BBVA BANCOMER2', '999000000000000014', false],
    ['BBVA BANCOMER2', '012180000012345674', true],
    ['SANTANDER2', '014180000012345672', true],
    ['HSBC2', '021180000012345678', true],
    ['OPM', '684180000012345675', true],
    ['DEUTSCHE', '124180000012345672', true],
    ['ACCENDO BANCO', '102180000012345678', false],
    ['AMERICAN EXPRESS', '103180000012345677', false],
    ['CREDIT SUISSE', '126180000012345670', false],
    ['ESTRUCTURADORES', '606180000012345679', false],
    ['VECTOR', '608180000012345677', false],
    ['MULTIVA CBOLSA', '613180000012345675', false],
    ['ZURICH', '627180000012345674', false],
    ['HDI SEGUROS', '636180000012345678', false],
    ['REFORMA', '642180000012345675', false],
    ['EVERCORE', '648180000012345679', false],
    ['INVERCAP', '686180000012345673', false],
  ]),
  ...documents('DNI (pen dni)', { currency: 'pen', document_type: 'dni' }, 'python-stdnum pe.cui', [
    ['10117410-G', true, '10117410'],
    ['10117410-2', true, '10117410'],
    ['10117410', true, '10117410'],
    ['45678912-I', true, '45678912'],
    ['10117410-J', false],
    ['10117410-3', false],
    ['45678912-H', false],
  ]),
  ...documents(
    'RFC (mxn rfc)',
    { currency: 'mxn', beneficiary_type: 'business', document_type: 'rfc' },
    'python-stdnum mx.rfc (check digit not validated by default)',
    [
      ['MAB9307148T4', true],
      ['MAB9307148T5', true],
      ['GODE561231GR8', true],
      ['GODE561231GR9', true],
      ['GODE561331GR8', false],
    ],
  ),
];

/** What is wrong with the service's answer to a published case, or undefined when it agrees. */
function disagreement(c: PublishedCase): string | undefined {
  const detail = { ...c.detail, [c.field]: c.value };
  const { errors } = validatePaymentDetail(detail, { requireFields: false });
  if (errors.length > 0 === c.accepted) {
    const why = errors.map((e) => `${e.field} ${e.message}`).join('; ');
    return c.accepted ? `refused (${why}), accepted by ${c.source}` : `accepted, refused by ${c.source}`;
  }
  if (!c.accepted && !errors.some((e) => e.field === c.field)) return `refused without naming ${c.field}`;
  const stored = canonicalPaymentDetail(detail)[c.field];
  if (c.accepted && c.stored !== undefined && stored !== c.stored)
    return `stored as ${stored}, not ${c.stored}`;
  return undefined;
}

/** Table rows (identifier, cases, agreed, agreement %, then a total) and a line for each disagreement. */
export function comparePublishedCases(): { rows: string[][]; wrong: string[] } {
  const wrong: string[] = [];
  const row = (identifier: string, cases: readonly PublishedCase[], agreed: number) => [
    identifier,
    String(cases.length),
    String(agreed),
    ((100 * agreed) / cases.length).toFixed(2),
  ];
  const groups = new Map<string, PublishedCase[]>();
  for (const c of publishedCases) groups.set(c.identifier, [...(groups.get(c.identifier) ?? []), c]);
  const rows = [...groups].map(([identifier, cases]) => {
    let agreed = 0;
    for (const c of cases) {
      const problem = disagreement(c);
      if (problem === undefined) agreed++;
      else
        wrong.push(
          `${identifier}: ${c.value}${c.detail.bank_name ? ` (${c.detail.bank_name})` : ''}: ${problem}`,
        );
    }
    return row(identifier, cases, agreed);
  });
  rows.push(row('all', publishedCases, publishedCases.length - wrong.length));
  return { rows, wrong };
}

/**
 * `npm run bench:identifiers`: how often the service's identifier checks agree with a reference library, on
 * generated valid identifiers and on mutations of them (one character changed, two swapped, one dropped or added,
 * a known prefix changed). The service side is what payment detail create does: canonicalPaymentDetail, then the
 * field's check. References: stdnum (a port of python-stdnum), ibantools, abavalidator. Prints a table and, for
 * each kind that disagrees, a few examples with both verdicts. Then the published cases of `identifierCases.ts`
 * (registry examples and the verdicts of python-stdnum, schwifty and clabe) go through validatePaymentDetail:
 * a second table gives the agreement per identifier and lists every case the service gets wrong.
 *
 * Environment: BENCH_IDENTIFIER_SAMPLES (valid samples per kind, 2000; as many mutated ones are added),
 * BENCH_IDENTIFIER_SEED (1).
 */

import {
  canonicalPaymentDetail,
  checkAbaRoutingNumber,
  checkBic,
  checkCbu,
  checkCci,
  checkClabe,
  checkColombianCedula,
  checkCuit,
  checkCurp,
  checkIban,
  checkNit,
  checkPeruvianDni,
  checkRfc,
  checkRuc,
  checkRut,
  type PaymentDetailInput,
} from '@checkout/banking';
import { validate as abaValidate } from 'abavalidator';
import { composeIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { stdnum } from 'stdnum';
import { comparePublishedCases } from './identifierCases.ts';

const validCount = Number(process.env.BENCH_IDENTIFIER_SAMPLES ?? 2000);
let seed = Number(process.env.BENCH_IDENTIFIER_SEED ?? 1) >>> 0;

/** mulberry32: the same seed gives the same samples, so two runs compare. */
function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const digits = (n: number) => Array.from({ length: n }, () => pick('0123456789'.split(''))).join('');
const letters = (n: number) =>
  Array.from({ length: n }, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''))).join('');
const alnum = (n: number) =>
  Array.from({ length: n }, () => pick('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''))).join('');
const weighted = (value: string, weights: readonly number[]) =>
  [...value].reduce((sum, c, i) => sum + Number(c) * (weights[i % weights.length] ?? 0), 0);

function validator(country: string, kind: string): (value: string) => boolean {
  const found = stdnum[country]?.[kind];
  if (!found) throw new Error(`stdnum has no ${country}.${kind}`);
  return (value) => found.validate(value).isValid;
}

/** Accepted by the service: the canonical form of `field` in a detail of `currency`, then its check. */
function service(
  field: keyof PaymentDetailInput,
  check: (value: string) => string | undefined,
  detail: PaymentDetailInput = {},
): (value: string) => boolean {
  return (value) => {
    const canonical = canonicalPaymentDetail({ ...detail, [field]: value })[field];
    return typeof canonical === 'string' && check(canonical) === undefined;
  };
}

// --- Generators of valid identifiers, written from each scheme's published rule, not from either side's code.

const ibanFormats: Record<string, () => string> = {
  DE: () => digits(18),
  AT: () => digits(16),
  NL: () => letters(4) + digits(10),
  GB: () => letters(4) + digits(14),
  IE: () => letters(4) + digits(14),
  CH: () => digits(5) + alnum(12),
  PL: () => digits(24),
  SE: () => digits(20),
  DK: () => digits(14),
  LU: () => digits(3) + alnum(13),
  AE: () => digits(19),
  SA: () => digits(2) + alnum(18),
  TR: () => `${digits(5)}0${alnum(16)}`,
};
function iban(): string {
  for (;;) {
    const countryCode = pick(Object.keys(ibanFormats));
    const composed = composeIBAN({ countryCode, bban: ibanFormats[countryCode]?.() ?? '' });
    if (composed) return composed;
  }
}

const bicCountries = [
  'DE',
  'FR',
  'GB',
  'US',
  'MX',
  'AR',
  'CL',
  'PE',
  'CO',
  'CH',
  'JP',
  'AE',
  'NL',
  'ES',
  'IT',
];
const bic = () => letters(4) + pick(bicCountries) + alnum(2) + (random() < 0.5 ? '' : alnum(3));

function aba(): string {
  const prefix = pick([
    '01',
    '02',
    '03',
    '04',
    '05',
    '06',
    '07',
    '08',
    '09',
    '10',
    '11',
    '12',
    '21',
    '26',
    '31',
    '32',
  ]);
  const body = prefix + digits(6);
  const sum = weighted(body, [3, 7, 1]);
  return body + String((10 - (sum % 10)) % 10);
}

const mod10 = (block: string, weights: readonly number[]) =>
  String((10 - (weighted(block, weights) % 10)) % 10);
function cbu(): string {
  const bank = `${pick(['007', '011', '014', '017', '027', '072', '143', '285', '191', '000'])}${digits(4)}`;
  const account = digits(13);
  return bank + mod10(bank, [7, 1, 3, 9, 7, 1, 3]) + account + mod10(account, [3, 9, 7, 1]);
}

function cuit(): string {
  for (;;) {
    const body = pick(['20', '23', '24', '27', '30', '33', '34']) + digits(8);
    const check = (11 - (weighted(body, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11;
    if (check !== 10) return body + String(check);
  }
}

function rut(): string {
  const body = String(1_000_000 + Math.floor(random() * 98_999_999));
  const sum = [...body].reverse().reduce((s, c, i) => s + Number(c) * ([2, 3, 4, 5, 6, 7][i % 6] ?? 0), 0);
  const check = 11 - (sum % 11);
  return body + (check === 11 ? '0' : check === 10 ? 'K' : String(check));
}

function clabe(): string {
  // Banks and plazas (CLABE digits 4–6) that every list, old or new, knows.
  const body =
    pick(['002', '012', '014', '021', '030', '036', '044', '072', '127', '137']) +
    pick(['010', '180', '320', '580']) +
    digits(11);
  return (
    body +
    String(
      (10 - ([...body].reduce((s, c, i) => s + ((Number(c) * ([3, 7, 1][i % 3] ?? 0)) % 10), 0) % 10)) % 10,
    )
  );
}

function cciCheck(block: string): string {
  let sum = 0;
  for (let i = 0; i < block.length; i++) {
    const product = Number(block[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return String((10 - (sum % 10)) % 10);
}
function cci(): string {
  const head = pick(['002', '003', '009', '011', '018']) + digits(3);
  const account = digits(12);
  return head + account + cciCheck(head) + cciCheck(account);
}

const curpAlphabet = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ';
const curpStates = ['AS', 'BC', 'CH', 'DF', 'JC', 'MC', 'NL', 'PL', 'QT', 'VZ', 'YN', 'ZS', 'NE'];
function pastDate(): [string, number] {
  const year = 1940 + Math.floor(random() * 65);
  const date = new Date(Date.UTC(year, Math.floor(random() * 12), 1 + Math.floor(random() * 28)));
  return [date.toISOString().slice(2, 10).replaceAll('-', ''), year];
}
function curp(): string {
  const [date, year] = pastDate();
  const name = pick('BCDFGHJLMNPRSTV'.split('')) + pick('AEIOU'.split('')) + letters(2);
  const body =
    name + date + pick(['H', 'M']) + pick(curpStates) + letters(3) + (year < 2000 ? digits(1) : letters(1));
  const sum = [...body].reduce((s, c, i) => s + curpAlphabet.indexOf(c) * (18 - i), 0);
  return body + String((10 - (sum % 10)) % 10);
}

const rfcAlphabet = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';
function rfc(): string {
  const [date] = pastDate();
  const front =
    (random() < 0.5 ? letters(3) : letters(4)) +
    date +
    pick('123456789ABCDEFGHIJKLMNPQRSTUV'.split('')) +
    pick('123456789ABCDEFGHIJKLMNPQRSTUVWXYZ'.split(''));
  const padded = front.padStart(12, ' ');
  const sum = [...padded].reduce((s, c, i) => s + rfcAlphabet.indexOf(c) * (13 - i), 0);
  const check = 11 - (sum % 11);
  return front + (check === 11 ? '0' : check === 10 ? 'A' : String(check));
}

const dni = () => digits(8);

function ruc(): string {
  const body = pick(['10', '15', '17', '20']) + digits(8);
  return body + String((11 - (weighted(body, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 10);
}

function nit(): string {
  const body = pick(['8', '9']) + digits(8);
  const sum = [...body]
    .reverse()
    .reduce((s, c, i) => s + Number(c) * ([3, 7, 13, 17, 19, 23, 29, 37, 41][i] ?? 0), 0);
  const r = sum % 11;
  return body + String(r > 1 ? 11 - r : r);
}

const cedula = () => String(Math.floor(10_000 + random() * 1_999_989_999));

// --- Mutations: what a typing or copying mistake does to a number.

function mutate(value: string): string {
  const chars = [...value];
  const at = Math.floor(random() * chars.length);
  const alphabet = /^\d+$/.test(value) ? '0123456789' : '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  switch (Math.floor(random() * 5)) {
    case 0: {
      const current = chars[at];
      let next = current;
      while (next === current) next = pick(alphabet.split(''));
      chars[at] = next ?? '';
      return chars.join('');
    }
    case 1: {
      const j = Math.min(at + 1, chars.length - 1);
      [chars[at], chars[j]] = [chars[j] ?? '', chars[at] ?? ''];
      return chars.join('');
    }
    case 2:
      chars.splice(at, 1);
      return chars.join('');
    case 3:
      chars.splice(at, 0, pick(alphabet.split('')));
      return chars.join('');
    default:
      // The first two characters: country, type prefix or bank code.
      return pick(alphabet.split('')) + pick(alphabet.split('')) + value.slice(2);
  }
}

interface Kind {
  name: string;
  reference: string;
  generate: () => string;
  ours: (value: string) => boolean;
  theirs?: (value: string) => boolean;
}

const kinds: Kind[] = [
  {
    name: 'IBAN',
    reference: 'ibantools',
    generate: iban,
    ours: service('iban', checkIban),
    theirs: isValidIBAN,
  },
  {
    name: 'BIC',
    reference: 'ibantools',
    generate: bic,
    ours: service('swift_bic', checkBic),
    theirs: isValidBIC,
  },
  {
    name: 'ABA',
    reference: 'abavalidator',
    generate: aba,
    ours: service('routing_number', checkAbaRoutingNumber),
    theirs: abaValidate,
  },
  {
    name: 'CBU',
    reference: 'stdnum AR.cbu',
    generate: cbu,
    ours: service('account_number', checkCbu, { currency: 'ars' }),
    theirs: validator('AR', 'cbu'),
  },
  {
    name: 'CUIT',
    reference: 'stdnum AR.cuit',
    generate: cuit,
    ours: service('document_number', checkCuit, { currency: 'ars' }),
    theirs: validator('AR', 'cuit'),
  },
  {
    name: 'RUT',
    reference: 'stdnum CL.rut',
    generate: rut,
    ours: service('document_number', checkRut, { currency: 'clp', document_type: 'rut' }),
    theirs: validator('CL', 'rut'),
  },
  {
    name: 'CLABE',
    reference: 'stdnum MX.clabe',
    generate: clabe,
    ours: service('account_number', checkClabe, { currency: 'mxn' }),
    theirs: validator('MX', 'clabe'),
  },
  {
    name: 'CCI',
    reference: 'none',
    generate: cci,
    ours: service('account_number', checkCci, { currency: 'pen' }),
  },
  {
    name: 'CURP (mxn curp)',
    reference: 'stdnum MX.curp',
    generate: curp,
    ours: service('document_number', checkCurp, { currency: 'mxn', document_type: 'curp' }),
    theirs: validator('MX', 'curp'),
  },
  {
    name: 'RFC (mxn rfc)',
    reference: 'stdnum MX.rfc, check digit not enforced (python-stdnum’s default)',
    generate: rfc,
    ours: service('document_number', checkRfc, { currency: 'mxn', document_type: 'rfc' }),
    theirs: (value) => {
      const result = stdnum.MX?.rfc?.validate(value);
      return result?.isValid === true || result?.error.name === 'InvalidChecksum';
    },
  },
  {
    name: 'DNI (pen dni)',
    reference: 'stdnum PE.cui',
    generate: dni,
    ours: service('document_number', checkPeruvianDni, { currency: 'pen', document_type: 'dni' }),
    theirs: validator('PE', 'cui'),
  },
  {
    name: 'RUC (pen ruc)',
    reference: 'stdnum PE.ruc',
    generate: ruc,
    ours: service('document_number', checkRuc, { currency: 'pen', document_type: 'ruc' }),
    theirs: validator('PE', 'ruc'),
  },
  {
    name: 'NIT (cop nit)',
    reference: 'stdnum CO.nit',
    generate: nit,
    ours: service('document_number', checkNit, { currency: 'cop', document_type: 'nit' }),
    theirs: validator('CO', 'nit'),
  },
  {
    name: 'Cédula (cop ced_ciu, ced_ext)',
    reference: 'none',
    generate: cedula,
    ours: service('document_number', checkColombianCedula, { currency: 'cop', document_type: 'ced_ciu' }),
  },
];

interface Result {
  kind: Kind;
  samples: number;
  agreed: number;
  oursAccepted: number;
  theirsAccepted: number;
  examples: string[];
}

const results: Result[] = kinds.map((kind) => {
  const samples: string[] = [];
  for (let i = 0; i < validCount; i++) {
    const value = kind.generate();
    samples.push(value, mutate(value));
  }
  const result: Result = {
    kind,
    samples: samples.length,
    agreed: 0,
    oursAccepted: 0,
    theirsAccepted: 0,
    examples: [],
  };
  for (const value of samples) {
    const ours = kind.ours(value);
    if (ours) result.oursAccepted++;
    if (!kind.theirs) continue;
    const theirs = kind.theirs(value);
    if (theirs) result.theirsAccepted++;
    if (ours === theirs) result.agreed++;
    else if (result.examples.length < 4) {
      result.examples.push(
        `${value}: service ${ours ? 'accepts' : 'refuses'}, ${kind.reference} ${theirs ? 'accepts' : 'refuses'}`,
      );
    }
  }
  return result;
});

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

printTable(
  ['identifier', 'reference', 'samples', 'agreement %', 'service accepts', 'reference accepts'],
  results.map((r) => [
    r.kind.name,
    r.kind.reference,
    String(r.samples),
    r.kind.theirs ? ((100 * r.agreed) / r.samples).toFixed(2) : 'n/a',
    String(r.oursAccepted),
    r.kind.theirs ? String(r.theirsAccepted) : 'n/a',
  ]),
);
for (const r of results.filter((result) => result.examples.length > 0)) {
  console.log(`\n${r.kind.name}, where the two disagree:`);
  for (const example of r.examples) console.log(`  ${example}`);
}

const { rows, wrong } = comparePublishedCases();
console.log('\nPublished cases (validatePaymentDetail):');
printTable(['identifier', 'cases', 'agreed', 'agreement %'], rows);
if (wrong.length > 0) console.log(`\nWhere the service disagrees:\n${wrong.map((w) => `  ${w}`).join('\n')}`);

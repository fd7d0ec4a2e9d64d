import type { LatamBank } from '../types.ts';

// Names: the payout partner's own list, verbatim, trailing spaces included, as clients send them verbatim
// (shared/research/area-b-offramps.md §8, the example response of its latam_bank_names page); then the SPEI
// participants the partner's list lacks (Mercado Pago W to Citi México), named as the institutions write them.
// Codes (CLABE digits 1–3, the last 3 digits of the SPEI participant code): Banxico's list of SPEI participants
// (https://www.banxico.org.mx/cep-scl/listaInstituciones.do) as mirrored in cuenca-mx/clabe-python clabe/banks.py
// (commit c48262273b82, March 2026). Participants that have since left SPEI keep the code of that file's 2022
// version (commit 16b23d57f592, Banxico list of 2019); ZURICH's comes from stdnum's mx/banks.ts. DEUTSCHE and
// Citi México share 124: Deutsche Bank México left and Banxico gave its code to Citi México. The partner's
// short names map to Banxico's: BAJIO = Bajio, BABIEN = Banco del Bienestar, ABC CAPITAL = 138 (now Ualá),
// NU MEXICO = 638 (formerly Akala), Nvio Pagos México = NVIO 710, BANCO COVALTO = 154, BBASE = Banco Base 145.
// SANTANDER2, BBVA BANCOMER2, HSBC2 and OPM match no Banxico participant: they carry no code and no CLABE is
// checked against them.
/** Mexican banks for MXN payouts, with their SPEI codes (CLABE digits 1–3). */
export const mexicoBanks: readonly LatamBank[] = [
  { name: 'BANAMEX', code: '002', accountPrefix: '002' },
  { name: 'BBVA BANCOMER', code: '012', accountPrefix: '012' },
  { name: 'SANTANDER', code: '014', accountPrefix: '014' },
  { name: 'HSBC', code: '021', accountPrefix: '021' },
  { name: 'BAJIO', code: '030', accountPrefix: '030' },
  { name: 'INBURSA', code: '036', accountPrefix: '036' },
  { name: 'MIFEL', code: '042', accountPrefix: '042' },
  { name: 'SCOTIABANK', code: '044', accountPrefix: '044' },
  { name: 'BANREGIO', code: '058', accountPrefix: '058' },
  { name: 'BANSI', code: '060', accountPrefix: '060' },
  { name: 'BANORTE', code: '072', accountPrefix: '072' },
  { name: 'ACCENDO BANCO', code: '102', accountPrefix: '102' }, // Banxico list of 2019
  { name: 'AMERICAN EXPRESS', code: '103', accountPrefix: '103' }, // Banxico list of 2019
  { name: 'BANK OF AMERICA', code: '106', accountPrefix: '106' },
  { name: 'MUFG', code: '108', accountPrefix: '108' },
  { name: 'JP MORGAN', code: '110', accountPrefix: '110' },
  { name: 'BMONEX', code: '112', accountPrefix: '112' },
  { name: 'VE POR MAS', code: '113', accountPrefix: '113' },
  { name: 'DEUTSCHE', code: '124', accountPrefix: '124' }, // Banxico list of 2019
  { name: 'CREDIT SUISSE', code: '126', accountPrefix: '126' }, // Banxico list of 2019
  { name: 'AZTECA', code: '127', accountPrefix: '127' },
  { name: 'AUTOFIN', code: '128', accountPrefix: '128' },
  { name: 'BARCLAYS', code: '129', accountPrefix: '129' },
  { name: 'COMPARTAMOS', code: '130', accountPrefix: '130' },
  { name: 'MULTIVA BANCO', code: '132', accountPrefix: '132' },
  { name: 'ACTINVER', code: '133', accountPrefix: '133' },
  { name: 'INTERCAM BANCO', code: '136', accountPrefix: '136' },
  { name: 'BANCOPPEL', code: '137', accountPrefix: '137' },
  { name: 'ABC CAPITAL', code: '138', accountPrefix: '138' },
  { name: 'CONSUBANCO', code: '140', accountPrefix: '140' },
  { name: 'VOLKSWAGEN', code: '141', accountPrefix: '141' },
  { name: 'CIBANCO', code: '143', accountPrefix: '143' },
  { name: 'BBASE', code: '145', accountPrefix: '145' },
  { name: 'BANKAOOL', code: '147', accountPrefix: '147' },
  { name: 'PAGATODO', code: '148', accountPrefix: '148' },
  { name: 'INMOBILIARIO', code: '150', accountPrefix: '150' },
  { name: 'DONDE', code: '151', accountPrefix: '151' },
  { name: 'BANCREA', code: '152', accountPrefix: '152' },
  { name: 'ICBC', code: '155', accountPrefix: '155' },
  { name: 'SABADELL', code: '156', accountPrefix: '156' },
  { name: 'SHINHAN', code: '157', accountPrefix: '157' },
  { name: 'MIZUHO BANK', code: '158', accountPrefix: '158' },
  { name: 'BANCO S3', code: '160', accountPrefix: '160' },
  { name: 'MONEXCB', code: '600', accountPrefix: '600' },
  { name: 'GBM', code: '601', accountPrefix: '601' },
  { name: 'MASARI', code: '602', accountPrefix: '602' },
  { name: 'VALUE', code: '605', accountPrefix: '605' },
  { name: 'ESTRUCTURADORES', code: '606', accountPrefix: '606' }, // Banxico list of 2019
  { name: 'VECTOR', code: '608', accountPrefix: '608' }, // Banxico list of 2019
  { name: 'MULTIVA CBOLSA', code: '613', accountPrefix: '613' }, // Banxico list of 2019
  { name: 'FINAMEX', code: '616', accountPrefix: '616' },
  { name: 'VALMEX', code: '617', accountPrefix: '617' },
  { name: 'PROFUTURO', code: '620', accountPrefix: '620' },
  { name: 'CB INTERCAM', code: '630', accountPrefix: '630' },
  { name: 'CI BOLSA', code: '631', accountPrefix: '631' },
  { name: 'FINCOMUN', code: '634', accountPrefix: '634' },
  { name: 'HDI SEGUROS', code: '636', accountPrefix: '636' }, // Banxico list of 2019
  { name: 'REFORMA', code: '642', accountPrefix: '642' }, // Banxico list of 2019
  { name: 'STP', code: '646', accountPrefix: '646' },
  { name: 'EVERCORE', code: '648', accountPrefix: '648' }, // Banxico list of 2019
  { name: 'CREDICAPITAL', code: '652', accountPrefix: '652' },
  { name: 'KUSPIT', code: '653', accountPrefix: '653' },
  { name: 'UNAGRA', code: '656', accountPrefix: '656' },
  { name: 'ASP INTEGRA OPC', code: '659', accountPrefix: '659' },
  { name: 'LIBERTAD', code: '670', accountPrefix: '670' },
  { name: 'CAJA POP MEXICA', code: '677', accountPrefix: '677' },
  { name: 'CRISTOBAL COLON', code: '680', accountPrefix: '680' },
  { name: 'CAJA TELEFONIST', code: '683', accountPrefix: '683' },
  { name: 'FONDO (FIRA)', code: '685', accountPrefix: '685' },
  { name: 'INVERCAP', code: '686', accountPrefix: '686' }, // Banxico list of 2019
  { name: 'FOMPED', code: '689', accountPrefix: '689' },
  { name: 'SANTANDER2' },
  { name: 'CLS', code: '901', accountPrefix: '901' },
  { name: 'INDEVAL', code: '902', accountPrefix: '902' },
  { name: 'BBVA BANCOMER2' },
  { name: 'HSBC2' },
  { name: 'ZURICH', code: '627', accountPrefix: '627' }, // stdnum mx/banks.ts
  { name: 'ARCUS', code: '706', accountPrefix: '706' },
  { name: 'NU MEXICO', code: '638', accountPrefix: '638' },
  { name: 'BABIEN', code: '166', accountPrefix: '166' },
  { name: 'BANOBRAS - Updated Name ', code: '009', accountPrefix: '009' },
  { name: 'BANCOMEXT - Updated', code: '006', accountPrefix: '006' },
  { name: 'BANJERCITO', code: '019', accountPrefix: '019' },
  { name: 'Nvio Pagos México', code: '710', accountPrefix: '710' },
  { name: 'BANCO COVALTO', code: '154', accountPrefix: '154' },
  { name: 'OPM' },
  { name: 'AFIRME', code: '062', accountPrefix: '062' },
  { name: 'INVEX ', code: '059', accountPrefix: '059' },
  { name: 'HIPOTECARIA FED', code: '168', accountPrefix: '168' },
  { name: 'Mercado Pago W', code: '722', accountPrefix: '722' },
  { name: 'Spin by OXXO', code: '728', accountPrefix: '728' },
  { name: 'Hey Banco', code: '167', accountPrefix: '167' },
  { name: 'Klar', code: '661', accountPrefix: '661' },
  { name: 'albo', code: '721', accountPrefix: '721' },
  { name: 'Fondeadora', code: '699', accountPrefix: '699' },
  { name: 'Cuenca', code: '723', accountPrefix: '723' },
  { name: 'Citi México', code: '124', accountPrefix: '124' },
];

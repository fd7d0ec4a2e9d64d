import type { LatamBank } from '../types.ts';

// Sources (shared/data/latam-bank-names.md): talo-pay/entidades-financieras-logos-arg entidades-financieras.json
// (BCRA codes, legal names), dotaZealot/pagsmile payout/bank-code/bank-in-argentina.md (3-digit CBU codes),
// fmazzoli-dlocal/documentation payouts/argentina.md (older names), blog.naranjax.com (CVU: 000 + provider id).
// `code` is the BCRA entity code, CBU digits 1–3 for banks; for CVU wallets, the 5-digit provider id after 000.
// The provincial banks of Santa Cruz (086), Tierra del Fuego (268), La Rioja (309), Formosa (315) and Santiago
// del Estero (321) take their codes and legal names from the same BCRA-coded file (talo-pay commit 713c795bb21b);
// BCRA's own entity list is https://www.bcra.gob.ar/SistemasFinancierosYdePagos/Activos.asp.
/** Argentine banks and wallets for ARS payouts, with the prefix of their CBUs or CVUs where known. */
export const argentinaBanks: readonly LatamBank[] = [
  { name: 'Banco de Galicia y Buenos Aires S.A.U.', code: '007', accountPrefix: '007' },
  { name: 'Banco de la Nación Argentina', code: '011', accountPrefix: '011' },
  { name: 'Banco de la Provincia de Buenos Aires', code: '014', accountPrefix: '014' },
  { name: 'Industrial and Commercial Bank of China', code: '015', accountPrefix: '015' },
  { name: 'Citibank N.A.', code: '016', accountPrefix: '016' },
  { name: 'Banco BBVA Argentina S.A.', code: '017', accountPrefix: '017' },
  { name: 'Banco de la Provincia de Córdoba S.A.', code: '020', accountPrefix: '020' },
  { name: 'Banco Supervielle S.A.', code: '027', accountPrefix: '027' },
  { name: 'Banco de la Ciudad de Buenos Aires', code: '029', accountPrefix: '029' },
  { name: 'Banco Patagonia S.A.', code: '034', accountPrefix: '034' },
  { name: 'Banco Hipotecario S.A.', code: '044', accountPrefix: '044' },
  { name: 'Banco de San Juan S.A.', code: '045', accountPrefix: '045' },
  { name: 'Banco Municipal de Rosario', code: '065', accountPrefix: '065' },
  { name: 'Banco Santander Argentina S.A.', code: '072', accountPrefix: '072' },
  { name: 'Banco del Chubut S.A.', code: '083', accountPrefix: '083' },
  { name: 'Banco de Santa Cruz S.A.', code: '086', accountPrefix: '086' },
  { name: 'Banco de La Pampa S.E.M.', code: '093', accountPrefix: '093' },
  { name: 'Banco de Corrientes S.A.', code: '094', accountPrefix: '094' },
  { name: 'Banco Provincia del Neuquén S.A.', code: '097', accountPrefix: '097' },
  { name: 'Brubank S.A.U.', code: '143', accountPrefix: '143' },
  { name: 'BiBank S.A.', code: '147', accountPrefix: '147' },
  { name: 'HSBC Bank Argentina S.A.', code: '150', accountPrefix: '150' },
  { name: 'Open Bank Argentina S.A.', code: '158', accountPrefix: '158' },
  { name: 'Banco Credicoop Cooperativo Limitado', code: '191', accountPrefix: '191' },
  { name: 'Banco BMA S.A.U.', code: '259', accountPrefix: '259' },
  { name: 'Banco Provincia de Tierra del Fuego', code: '268', accountPrefix: '268' },
  { name: 'Banco Macro S.A.', code: '285', accountPrefix: '285' },
  { name: 'Banco Comafi S.A.', code: '299', accountPrefix: '299' },
  { name: 'Banco Rioja S.A.U.', code: '309', accountPrefix: '309' },
  { name: 'Banco del Sol S.A.', code: '310', accountPrefix: '310' },
  { name: 'Nuevo Banco del Chaco S.A.', code: '311', accountPrefix: '311' },
  { name: 'Banco de Formosa S.A.', code: '315', accountPrefix: '315' },
  { name: 'Banco de Santiago del Estero S.A.', code: '321', accountPrefix: '321' },
  { name: 'Banco Industrial S.A.', code: '322', accountPrefix: '322' },
  { name: 'Nuevo Banco de Santa Fe S.A.', code: '330', accountPrefix: '330' },
  { name: 'Ualá Bank S.A.U.', code: '384', accountPrefix: '384' },
  { name: 'Nuevo Banco de Entre Ríos S.A.', code: '386', accountPrefix: '386' },
  { name: 'Banco Columbia S.A.', code: '389', accountPrefix: '389' },
  // A 5-digit BCRA code; the sources do not confirm how its account numbers start.
  { name: 'Naranja Digital Compañía Financiera S.A.U.', code: '45030' },
  { name: 'Mercado Pago', code: '00031', accountPrefix: '00000031' },
  { name: 'Ualá', code: '00079', accountPrefix: '00000079' },
  { name: 'Personal Pay', code: '00765', accountPrefix: '00000765' },
  { name: 'Lemon', code: '01683', accountPrefix: '00001683' },
  { name: 'Belo', code: '01393', accountPrefix: '00001393' },
  { name: 'Prex' },
];

import type { LatamBank } from '../types.ts';

/**
 * Peruvian banks, cajas and wallets for PEN payouts. `code` is the CCI entity code, the first 3 of the
 * 20 CCI digits.
 * Sources (shared/data/latam-bank-names.md): fmazzoli-dlocal/documentation payouts/peru.md (CCI codes),
 * teemopay/ttpaydoc peru/payout/bank.md, dotaZealot/pagsmile bank-in-peru.md and docs.payermax.com
 * latin-america/peru.md (names).
 */
export const peruBanks: readonly LatamBank[] = [
  { name: 'Banco de Crédito del Perú', code: '002', accountPrefix: '002' },
  { name: 'Interbank', code: '003', accountPrefix: '003' },
  { name: 'Citibank del Perú', code: '007', accountPrefix: '007' },
  { name: 'Scotiabank Perú', code: '009', accountPrefix: '009' },
  { name: 'BBVA Perú', code: '011', accountPrefix: '011' },
  { name: 'Banco de la Nación', code: '018', accountPrefix: '018' },
  { name: 'Banco de Comercio', code: '023', accountPrefix: '023' },
  { name: 'Banco Pichincha', code: '035', accountPrefix: '035' },
  { name: 'Banco Interamericano de Finanzas', code: '038', accountPrefix: '038' },
  { name: 'CrediScotia Financiera', code: '043', accountPrefix: '043' },
  { name: 'Mibanco', code: '049', accountPrefix: '049' },
  { name: 'Banco GNB Perú', code: '053', accountPrefix: '053' },
  { name: 'Banco Falabella Perú', code: '054', accountPrefix: '054' },
  { name: 'Banco Santander Perú', code: '056', accountPrefix: '056' },
  { name: 'Caja Metropolitana de Lima', code: '800', accountPrefix: '800' },
  { name: 'Caja Piura', code: '801', accountPrefix: '801' },
  { name: 'Caja Trujillo', code: '802', accountPrefix: '802' },
  { name: 'Caja Arequipa', code: '803', accountPrefix: '803' },
  { name: 'Caja Sullana', code: '805', accountPrefix: '805' },
  { name: 'Caja Cusco', code: '806', accountPrefix: '806' },
  { name: 'Caja Huancayo', code: '808', accountPrefix: '808' },
  { name: 'Caja Tacna', code: '813', accountPrefix: '813' },
  { name: 'Banco Ripley Perú' },
  { name: 'Alfin Banco' },
  { name: 'ICBC Perú Bank' },
  { name: 'Banco BCI Perú' },
  { name: 'Bank of China (Perú)' },
  { name: 'Caja Ica' },
  { name: 'Caja Maynas' },
  { name: 'Compartamos Financiera' },
  { name: 'Financiera Oh!' },
  { name: 'Financiera Confianza' },
  // A BCP wallet keyed by phone number, not a CCI entity of its own.
  { name: 'Yape' },
];

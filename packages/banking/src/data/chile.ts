import type { LatamBank } from '../types.ts';

/**
 * Chilean banks and wallets for CLP payouts. `code` is the SBIF/CMF institution code used in TEF transfers;
 * Chilean account numbers do not carry it, so it is not checked against them.
 * Sources (shared/data/latam-bank-names.md): odoo/odoo addons/l10n_cl/data/res.bank.csv (SBIF codes),
 * junngla-tech/junngla-redpay-sdk-nodejs SbifCode.ts, Axomic-dev/Report-Builder boufin.ts,
 * fmazzoli-dlocal/documentation payouts/chile.md, dotaZealot/pagsmile bank-in-chile.md,
 * docs.fintoc.com chile-institution-codes (names only).
 */
export const chileBanks: readonly LatamBank[] = [
  { name: 'Banco de Chile', code: '001' },
  { name: 'Banco Internacional', code: '009' },
  { name: 'Banco del Estado de Chile', code: '012' },
  { name: 'Scotiabank Chile', code: '014' },
  { name: 'Banco de Crédito e Inversiones', code: '016' },
  { name: 'MACH', code: '016' },
  { name: 'Banco do Brasil S.A.', code: '017' },
  { name: 'Banco BICE', code: '028' },
  { name: 'HSBC Bank (Chile)', code: '031' },
  { name: 'Banco Santander-Chile', code: '037' },
  { name: 'Banco Itaú Chile', code: '039' },
  { name: 'JP Morgan Chase Bank, N.A.', code: '041' },
  { name: 'Banco de la Nación Argentina', code: '043' },
  { name: 'Banco Security', code: '049' },
  { name: 'Banco Falabella', code: '051' },
  { name: 'Deutsche Bank (Chile)', code: '052' },
  { name: 'Banco Ripley', code: '053' },
  { name: 'Rabobank Chile', code: '054' },
  { name: 'Banco Consorcio', code: '055' },
  { name: 'Banco BTG Pactual Chile', code: '059' },
  { name: 'Scotiabank Azul', code: '504' },
  { name: 'Banco del Desarrollo', code: '507' },
  { name: 'Coopeuch', code: '672' },
  { name: 'Prepago Los Héroes', code: '729' },
  { name: 'Tenpo', code: '730' },
  { name: 'Tapp Caja Los Andes', code: '732' },
  { name: 'Mercado Pago', code: '875' },
  { name: 'Copec Pay' },
  { name: 'Global66' },
  { name: 'Prex Chile' },
];

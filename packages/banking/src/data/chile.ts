import type { LatamBank } from '../types.ts';
import banks from './chile.json' with { type: 'json' };

// The list is chile.json, one bank a line.
// Sources (shared/data/latam-bank-names.md): odoo/odoo addons/l10n_cl/data/res.bank.csv (SBIF codes),
// junngla-tech/junngla-redpay-sdk-nodejs SbifCode.ts, Axomic-dev/Report-Builder boufin.ts,
// fmazzoli-dlocal/documentation payouts/chile.md, dotaZealot/pagsmile bank-in-chile.md,
// docs.fintoc.com chile-institution-codes (names only).
// Chilean account numbers do not carry the institution code, so it is not checked against them.
/** Chilean banks and wallets for CLP payouts, with their SBIF/CMF institution codes. */
export const chileBanks: readonly LatamBank[] = banks;

import type { LatamBank } from '../types.ts';
import banks from './colombia.json' with { type: 'json' };

// The list is colombia.json, one bank a line.
// Sources (shared/data/latam-bank-names.md): teemopay/ttpaydoc colombia/payout/bank.md (4-digit ACH codes),
// fmazzoli-dlocal/documentation payouts/colombia.md and dotaZealot/pagsmile bank-in-colombia.md (3-digit codes).
// Colombian account numbers do not carry the ACH code, so it is not checked against them.
/** Colombian banks and wallets for COP payouts over koywe, with their ACH Colombia codes. */
export const colombiaBanks: readonly LatamBank[] = banks;

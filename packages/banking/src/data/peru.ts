import type { LatamBank } from '../types.ts';
import banks from './peru.json' with { type: 'json' };

// The list is peru.json, one bank a line.
// Sources (shared/data/latam-bank-names.md): fmazzoli-dlocal/documentation payouts/peru.md (CCI codes),
// teemopay/ttpaydoc peru/payout/bank.md, dotaZealot/pagsmile bank-in-peru.md, docs.payermax.com peru (names).
// Yape is a BCP wallet keyed by phone number, not a CCI entity of its own: it has no code.
/** Peruvian banks, cajas and wallets for PEN payouts, with their CCI entity codes (CCI digits 1–3). */
export const peruBanks: readonly LatamBank[] = banks;

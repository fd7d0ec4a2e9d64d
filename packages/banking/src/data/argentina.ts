import type { LatamBank } from '../types.ts';
import banks from './argentina.json' with { type: 'json' };

// The list is argentina.json, one bank a line.
// Sources (shared/data/latam-bank-names.md): talo-pay/entidades-financieras-logos-arg entidades-financieras.json
// (BCRA codes, legal names), dotaZealot/pagsmile payout/bank-code/bank-in-argentina.md (3-digit CBU codes),
// fmazzoli-dlocal/documentation payouts/argentina.md (older names), blog.naranjax.com (CVU: 000 + provider id).
// `code` is the BCRA entity code, CBU digits 1–3 for banks; for CVU wallets, the 5-digit provider id after 000.
// The provincial banks of Santa Cruz (086), Tierra del Fuego (268), La Rioja (309), Formosa (315) and Santiago
// del Estero (321) take their codes and legal names from the same BCRA-coded file (talo-pay commit 713c795bb21b);
// BCRA's own entity list is https://www.bcra.gob.ar/SistemasFinancierosYdePagos/Activos.asp.
// Naranja Digital has a 5-digit BCRA code; the sources do not confirm how its account numbers start, so it
// has no accountPrefix.
/** Argentine banks and wallets for ARS payouts, with the prefix of their CBUs or CVUs where known. */
export const argentinaBanks: readonly LatamBank[] = banks;

import type { LatamBank } from '../types.ts';
import banks from './mexico.json' with { type: 'json' };

// The list is mexico.json, one bank a line; `leftSpei` marks a bank that has left SPEI.
// Names: the payout partner's own list, verbatim, trailing spaces included, as clients send them verbatim
// (shared/research/area-b-offramps.md §8, the example response of its latam_bank_names page); then the SPEI
// participants the partner's list lacks (Mercado Pago W to Fintoc), named as the institutions or Banxico write
// them. Banxico's central-bank accounts (001) and CoDi Valida (903, a validation service) hold no one's account.
// Codes (CLABE digits 1–3, the last 3 digits of the SPEI participant code) come from Banxico's participant list,
// `speiParticipants.ts` (its source is named there). The partner's short names map to Banxico's: BAJIO = Bajio,
// BABIEN = BaBien, ABC CAPITAL = 138 (now Ualá), NU MEXICO = 638 (formerly Akala), Nvio Pagos México = NVIO 710,
// BANCO COVALTO = 154, BBASE = Banco Base 145, DEUTSCHE = 124 (Deutsche Bank México, whose licence Citigroup
// bought in 2023: the same institution, now Citi México), OPM = 684 (Banxico's TRANSFER, "Operadora de Pagos
// Móviles de México, S.A. de C.V."). SANTANDER2, BBVA BANCOMER2 and HSBC2 are the partner's second entries for
// Santander, BBVA and HSBC: SPEI has one participant per bank, so their CLABEs carry that bank's code.
// Eleven names of the partner's list have left SPEI: Banxico's list no longer has their code (their 2019 code is
// kept to say so). They are not offered, and a detail naming one is refused: no payout can reach them.

const leftSpeiBank = (name: string, code: string): LatamBank => ({
  name,
  code,
  unreachable: `has left SPEI (Banxico's participant list no longer has its code ${code}), so no MXN payout can reach it`,
});

/** Mexican banks for MXN payouts, with their SPEI codes (CLABE digits 1–3); `unreachable` ones have left SPEI. */
export const mexicoBanks: readonly LatamBank[] = banks.map(({ leftSpei, ...bank }) =>
  leftSpei ? leftSpeiBank(bank.name, bank.code) : bank,
);

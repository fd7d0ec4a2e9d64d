import { argentinaBanks } from './data/argentina.ts';
import { chileBanks } from './data/chile.ts';
import { colombiaBanks } from './data/colombia.ts';
import { mexicoBanks } from './data/mexico.ts';
import { peruBanks } from './data/peru.ts';
import type { LatamBank, LatamCountryCode } from './types.ts';

/** The curated bank list of each Latam country. */
export const latamBanks: Readonly<Record<LatamCountryCode, readonly LatamBank[]>> = {
  AR: argentinaBanks,
  CO: colombiaBanks,
  MX: mexicoBanks,
  CL: chileBanks,
  PE: peruBanks,
};

import { paymentDetailRules } from './paymentDetailRules.ts';
import type { PaymentRail } from './types.ts';

/** The rail a detail in `currency` is paid over: `rails` if offered; when blank, local, else the only rail. */
export function resolvePaymentRail(currency: string, rails?: string | null): PaymentRail | undefined {
  if (!Object.hasOwn(paymentDetailRules, currency)) return undefined;
  const offered = Object.keys(paymentDetailRules[currency]?.rails ?? {}) as PaymentRail[];
  if (rails === undefined || rails === null || rails.trim() === '') {
    return offered.includes('local') ? 'local' : offered[0];
  }
  return offered.find((rail) => rail === rails);
}

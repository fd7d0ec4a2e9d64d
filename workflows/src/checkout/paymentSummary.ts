/** A wallet's payments over a time window as the console's home shows them: volume per token, count per day. */
import { formatUnits, type PaymentSummary } from '@checkout/core';
import { type Database, type PaymentVolumeWindow, sumWalletPayments, type WalletScope } from '@checkout/db';
import type { Kysely } from 'kysely';

/** The window's standing payments: their count, the exact sum per chain and token, the count per day. */
export async function walletPaymentSummary(
  db: Kysely<Database>,
  scope: WalletScope,
  window: PaymentVolumeWindow,
): Promise<Pick<PaymentSummary, 'payments' | 'volumes' | 'days'>> {
  const { volumes, days } = await sumWalletPayments(db, scope, window);
  return {
    payments: volumes.reduce((n, v) => n + v.payments, 0),
    volumes: volumes.map(({ decimal_count, units, ...v }) => ({
      ...v,
      amount: formatUnits(BigInt(units), decimal_count),
    })),
    days,
  };
}

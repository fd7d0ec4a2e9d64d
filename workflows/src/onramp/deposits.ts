/**
 * The bank partner's notice of a fiat deposit for an onramp (research §9): stored before the onramp's
 * workflow hears of it, with the call that hands it over in the same transaction, so a notice is never lost,
 * even while Temporal is down; the workflow credits it.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal, fiatDecimals, parseUnits, recordInvalid } from '@checkout/core';
import { type Database, insertOnrampDeposit, inTransaction, type OnrampRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { onrampLimits } from './create.ts';
import type { OnrampDeposit } from './shared.ts';
import { queueOnrampDeposit } from './start.ts';

/** Stores the deposit notice of `amount` (fiat, a decimal string) and hands it to the onramp's workflow. */
export async function recordOnrampDeposit(
  db: Kysely<Database>,
  input: { onramp: OnrampRow; amount: string },
): Promise<OnrampDeposit> {
  const { onramp, amount } = input;
  const cents = parseUnits(amount, fiatDecimals);
  if (cents <= 0n) throw recordInvalid([{ path: 'amount', message: 'must be positive' }]);
  if (cents > parseUnits(onrampLimits.maxDeposit, fiatDecimals)) {
    throw recordInvalid([{ path: 'amount', message: `must be at most ${onrampLimits.maxDeposit}` }]);
  }
  return inTransaction(db, async (trx) => {
    const stored = await insertOnrampDeposit(trx, {
      id: randomUUID(),
      onramp_id: onramp.id,
      amount: centsToDecimal(cents),
    });
    const deposit = { depositId: stored.id, amount };
    await queueOnrampDeposit(trx, onramp, deposit);
    return deposit;
  });
}

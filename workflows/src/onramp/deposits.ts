/**
 * The bank partner's notice of a fiat deposit for an onramp (research §9): stored before the onramp's
 * workflow hears of it, so a notice is never lost, even while Temporal is down; the workflow credits it and
 * the reconciler hands over any notice Temporal did not take.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal, fiatDecimals, parseUnits, recordInvalid, temporalUnavailable } from '@checkout/core';
import { type Database, insertOnrampDeposit, type OnrampRow } from '@checkout/db';
import type { Kysely } from 'kysely';
import { type HandOverDeps, type HandOverLog, handDepositToWorkflow } from '../reconciler.ts';
import { onrampLimits } from './create.ts';
import type { OnrampDeposit } from './shared.ts';

/** Stores the deposit notice of `amount` (fiat, a decimal string) and hands it to the onramp's workflow. */
export async function recordOnrampDeposit(
  db: Kysely<Database>,
  deps: HandOverDeps & { log: HandOverLog },
  input: { onramp: OnrampRow; amount: string },
): Promise<OnrampDeposit> {
  const { onramp, amount } = input;
  const cents = parseUnits(amount, fiatDecimals);
  if (cents <= 0n) throw recordInvalid([{ path: 'amount', message: 'must be positive' }]);
  if (cents > parseUnits(onrampLimits.maxDeposit, fiatDecimals)) {
    throw recordInvalid([{ path: 'amount', message: `must be at most ${onrampLimits.maxDeposit}` }]);
  }
  if (!deps.temporal) throw temporalUnavailable('deposits cannot be credited');
  const stored = await insertOnrampDeposit(db, {
    id: randomUUID(),
    onramp_id: onramp.id,
    amount: centsToDecimal(cents),
  });
  const deposit = { depositId: stored.id, amount };
  await handDepositToWorkflow(deps, db, onramp, deposit, deps.log);
  return deposit;
}

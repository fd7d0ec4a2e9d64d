/**
 * The funding activities of `onrampLifecycle`: read the onramp, credit the bank partner's deposits (holding
 * a short one, returning an excess or a late one), expire an unfunded onramp, and note a step that failed
 * for good.
 */
import { printableText } from '@checkout/core';
import { type Database, inTransaction, type SecretBox, type StoredDeposit } from '@checkout/db';
import type { Kysely } from 'kysely';
import { cents, changeRefunds, changeStatus, loadOnrampRow, money, newRefund, unchanged } from './changes.ts';
import type { OnrampActivities } from './shared.ts';

/** Builds the funding activities. */
export function createFundingActivities(
  db: Kysely<Database>,
  secrets: SecretBox,
): Pick<OnrampActivities, 'loadOnramp' | 'expireOnramp' | 'creditOnrampDeposit' | 'recordOnrampStepFailure'> {
  return {
    async loadOnramp({ onrampId }) {
      return unchanged(db, await loadOnrampRow(db, onrampId));
    },

    async expireOnramp({ onrampId }) {
      return inTransaction(db, async (trx) => {
        const step = await changeStatus(trx, secrets, onrampId, 'initiated', {
          status: 'expired',
          statusMessage: 'No deposit arrived before the onramp expired.',
        });
        return step ?? unchanged(trx, await loadOnrampRow(trx, onrampId));
      });
    },

    async creditOnrampDeposit({ onrampId, deposit }) {
      return inTransaction(db, async (trx) => {
        const row = await loadOnrampRow(trx, onrampId);
        const deposits = row.deposits as StoredDeposit[];
        // A repeated report of the same deposit, or one after funding, changes nothing.
        if (deposits.some((d) => d.id === deposit.depositId)) return unchanged(trx, row);
        const amount = money(cents(deposit.amount));
        if (row.status !== 'initiated' && row.status !== 'held') {
          // Funded, expired or failed already: the deposit is not credited and goes back in full.
          return changeRefunds(trx, secrets, row, {
            deposits: [...deposits, { id: deposit.depositId, amount, credited: false }],
            refunds: [
              ...row.refunds,
              newRefund('late_deposit', deposit.depositId, deposit.depositId, amount),
            ],
          });
        }
        const received = cents(row.received_amount) + cents(deposit.amount);
        const due = cents(row.deposit_amount);
        const funded = received >= due;
        const over = received - due;
        const step = await changeStatus(trx, secrets, onrampId, row.status, {
          status: funded ? 'funds_received' : 'held',
          statusMessage: funded
            ? over > 0n
              ? `Received ${money(received)} ${row.fiat_currency}, ${money(over)} more than the deposit amount; the excess is returned to the sending account.`
              : null
            : `Received ${money(received)} of ${money(due)} ${row.fiat_currency}; deposit the remaining ${money(due - received)} with the same reference.`,
          receivedAmount: money(received),
          deposits: [...deposits, { id: deposit.depositId, amount }],
          ...(funded && over > 0n
            ? {
                refunds: [
                  ...row.refunds,
                  newRefund('excess', deposit.depositId, deposit.depositId, money(over)),
                ],
              }
            : {}),
        });
        return step ?? unchanged(trx, await loadOnrampRow(trx, onrampId));
      });
    },

    async recordOnrampStepFailure({ onrampId, message }) {
      return inTransaction(db, async (trx) => {
        const row = await loadOnrampRow(trx, onrampId);
        // A retried note (its first attempt committed) changes nothing and queues no second webhook.
        if (row.status_message === printableText(message)) return unchanged(trx, row);
        const step = await changeStatus(trx, secrets, onrampId, row.status, {
          status: row.status,
          statusMessage: printableText(message),
        });
        return step ?? unchanged(trx, await loadOnrampRow(trx, onrampId));
      });
    },
  };
}

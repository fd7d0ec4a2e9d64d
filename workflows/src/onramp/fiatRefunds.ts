/**
 * Fiat the onramp does not use goes back through the bank partner (bankPartner.ts): each pending refund is
 * returned once, keyed by its id, and the outcome is written with its `onramp_update` webhook.
 */
import { type Database, inTransaction, type SecretBox } from '@checkout/db';
import type { Kysely } from 'kysely';
import type { BankPartner } from './bankPartner.ts';
import { changeRefunds, loadOnrampRow } from './changes.ts';
import type { OnrampActivities } from './shared.ts';

/** Builds the activity that returns the onramp's pending refunds. */
export function createFiatRefundActivities(
  db: Kysely<Database>,
  secrets: SecretBox,
  bank: BankPartner,
): Pick<OnrampActivities, 'returnOnrampRefunds'> {
  return {
    async returnOnrampRefunds({ onrampId }) {
      const webhookDeliveryIds: string[] = [];
      let row = await loadOnrampRow(db, onrampId);
      for (const pending of row.refunds.filter((r) => r.status === 'pending')) {
        // The partner returns once per key: a retry after a crash here asks again and gets the same answer.
        const outcome = await bank.returnFunds({
          key: pending.id,
          onrampId,
          depositId: pending.deposit_id,
          amount: pending.amount,
          currency: row.fiat_currency,
          reference: row.deposit_message,
        });
        const step = await inTransaction(db, async (trx) => {
          const current = await loadOnrampRow(trx, onrampId);
          if (current.refunds.find((r) => r.id === pending.id)?.status !== 'pending') return null;
          return changeRefunds(trx, secrets, current, {
            refunds: current.refunds.map((r) =>
              r.id !== pending.id
                ? r
                : outcome.status === 'sent'
                  ? { ...r, status: 'sent' as const, reference: outcome.reference }
                  : { ...r, status: 'failed' as const, message: outcome.message },
            ),
          });
        });
        if (step?.webhookDeliveryId) webhookDeliveryIds.push(step.webhookDeliveryId);
        row = await loadOnrampRow(db, onrampId);
      }
      return { status: row.status, webhookDeliveryIds };
    },
  };
}

/**
 * The token delivery of `onrampLifecycle`: the treasury sends the onramp's tokens exactly once (the signed
 * transaction is recorded before its broadcast and checked before any retry, treasury.ts), and the transfer
 * is checked until it is confirmed (`crypto_sent`) or reverted (`failed`, the deposit returned).
 */
import { normalizeDecimal, parseUnits } from '@checkout/core';
import {
  type Database,
  inTransaction,
  type OnrampRow,
  recordSignedTransfer,
  type SecretBox,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import type { Address } from 'viem';
import { cents, changeStatus, loadOnrampRow, money, newRefund, unchanged } from './changes.ts';
import type { OnrampActivities, OnrampTransferCheck } from './shared.ts';
import type { Treasury, TreasuryPayment } from './treasury.ts';

/** Builds the delivery activities. */
export function createDeliveryActivities(
  db: Kysely<Database>,
  secrets: SecretBox,
  treasury: Treasury,
): Pick<OnrampActivities, 'sendOnrampCrypto' | 'checkOnrampTransfer'> {
  /** The onramp's delivery as a treasury payment, recorded on the onramp row. */
  const paymentOf = (row: OnrampRow): TreasuryPayment => ({
    chainId: row.chain_id,
    token: row.token_address as Address,
    to: row.destination_address as Address,
    amount: parseUnits(normalizeDecimal(row.destination_amount), row.token_decimals),
    noReturnTransfer: row.token_no_return,
    load: async () => {
      const current = await loadOnrampRow(db, row.id);
      return { hash: current.tx_hash, serialized: current.tx_serialized, nonce: current.tx_nonce };
    },
    record: (previousHash, tx) => recordSignedTransfer(db, 'onramps', row.id, previousHash, tx),
  });

  return {
    async sendOnrampCrypto({ onrampId }) {
      const moved = await inTransaction(db, (trx) =>
        changeStatus(trx, secrets, onrampId, 'funds_received', {
          status: 'sending_crypto',
          statusMessage: null,
        }),
      );
      const row = await loadOnrampRow(db, onrampId);
      if (row.status === 'sending_crypto') await treasury.send(paymentOf(row));
      return moved ?? unchanged(db, row);
    },

    async checkOnrampTransfer({ onrampId }): Promise<OnrampTransferCheck> {
      const row = await loadOnrampRow(db, onrampId);
      if (row.status !== 'sending_crypto' || !row.tx_hash || !row.tx_serialized) {
        return { ...(await unchanged(db, row)), transfer: 'none' };
      }
      const check = await treasury.check(paymentOf(row));
      if (check.state === 'none' || check.state === 'pending')
        return { ...(await unchanged(db, row)), transfer: 'pending' };
      if (check.state === 'reverted') {
        const step = await inTransaction(db, (trx) =>
          changeStatus(trx, secrets, onrampId, 'sending_crypto', {
            status: 'failed',
            statusMessage: `The treasury transfer ${check.hash} reverted on chain; the deposit is returned to the sending account.`,
            // The deposit amount goes back; an excess above it has its own refund.
            refunds: [
              ...row.refunds,
              newRefund('onramp_failed', onrampId, null, money(cents(row.deposit_amount))),
            ],
          }),
        );
        return {
          ...(step ?? (await unchanged(db, await loadOnrampRow(db, onrampId)))),
          transfer: 'reverted',
        };
      }
      const step = await inTransaction(db, (trx) =>
        changeStatus(trx, secrets, onrampId, 'sending_crypto', {
          status: 'crypto_sent',
          statusMessage: null,
        }),
      );
      return { ...(step ?? (await unchanged(db, await loadOnrampRow(db, onrampId)))), transfer: 'confirmed' };
    },
  };
}

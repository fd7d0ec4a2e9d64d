/**
 * Activities of `onrampLifecycle`: credit fiat deposits, expire unfunded onramps, send the treasury's
 * tokens exactly once (the signed transaction is recorded before its broadcast and checked before any
 * retry), and return unused fiat through the bank partner (the excess of a deposit, deposits reported
 * after funding or expiry, a failed onramp's deposit). Every change is written with its `onramp_update`
 * webhook in one transaction.
 */
import type { ChainClients } from '@checkout/chain';
import { fiatDecimals, formatUnits, normalizeDecimal, parseUnits, printableText } from '@checkout/core';
import {
  type Database,
  type Db,
  findOnrampById,
  findUnattemptedDelivery,
  type OnrampChange,
  type OnrampRow,
  type OnrampStatusValue,
  presentOnramp,
  queueAccountEvent,
  recordOnrampTransfer,
  type StoredDeposit,
  type StoredOnrampRefund,
  transitionOnramp,
  updateOnrampRefunds,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { Address, Hex } from 'viem';
import { type BankPartner, createSandboxBankPartner } from './bankPartner.ts';
import {
  type OnrampActivities,
  type OnrampStep,
  type OnrampTransferCheck,
  onrampNotFound,
  onrampUpdateEvent,
} from './shared.ts';
import { createTreasury, type TreasuryPayment } from './treasury.ts';

/** What the onramp activities need. */
export interface OnrampActivityDeps {
  db: Db;
  chains: ChainClients;
  ramps: { treasuryPrivateKey: Hex };
  /** The bank partner that returns unused fiat; the sandbox partner when absent. */
  bankPartner?: BankPartner;
}

const cents = (decimal: string) => parseUnits(normalizeDecimal(decimal), fiatDecimals);
const money = (units: bigint) => formatUnits(units, fiatDecimals, fiatDecimals);

/** Queues the `onramp_update` of the row's current version; null without a webhook endpoint. */
async function queueUpdate(trx: Kysely<Database>, row: OnrampRow): Promise<string | null> {
  return queueAccountEvent(trx, {
    merchantId: row.merchant_id,
    event: onrampUpdateEvent,
    subjectId: `${row.id}:status:${row.status_version}`,
    payload: { onramp: presentOnramp(row) },
  });
}

/** Applies a status change and queues its webhook in the same transaction; null when the change lost a race. */
async function changeStatus(
  trx: Kysely<Database>,
  id: string,
  from: OnrampStatusValue,
  change: OnrampChange,
): Promise<OnrampStep | null> {
  const row = await transitionOnramp(trx, id, from, change);
  if (!row) return null;
  return { status: row.status, webhookDeliveryId: await queueUpdate(trx, row) };
}

/**
 * Changes the onramp's deposits and refunds only (its status stays) and queues its webhook in the same
 * transaction. Throws (retryably) when the row changed since `row` was read, so the caller reads again.
 */
async function changeRefunds(
  trx: Kysely<Database>,
  row: OnrampRow,
  change: { deposits?: StoredDeposit[]; refunds: StoredOnrampRefund[] },
): Promise<OnrampStep> {
  const updated = await updateOnrampRefunds(trx, row.id, row.status_version, change);
  if (!updated) throw ApplicationFailure.retryable(`onramp ${row.id} changed meanwhile`, 'OnrampChanged');
  return { status: updated.status, webhookDeliveryId: await queueUpdate(trx, updated) };
}

/** A refund of `amount` fiat for `reason`, keyed so that the bank partner returns it once. */
function newRefund(
  reason: StoredOnrampRefund['reason'],
  subject: string,
  depositId: string | null,
  amount: string,
): StoredOnrampRefund {
  return {
    id: `${reason}:${subject}`,
    reason,
    deposit_id: depositId,
    amount,
    status: 'pending',
    reference: null,
    message: null,
  };
}

/** Builds the onramp activities. */
export function createOnrampActivities(deps: OnrampActivityDeps): OnrampActivities {
  const db = deps.db.kysely;
  const treasury = createTreasury({ chains: deps.chains, privateKey: deps.ramps.treasuryPrivateKey });
  const bank = deps.bankPartner ?? createSandboxBankPartner();

  const load = async (trx: Kysely<Database>, id: string): Promise<OnrampRow> => {
    const row = await findOnrampById(trx, id);
    if (!row) throw ApplicationFailure.retryable(`onramp ${id} does not exist`, onrampNotFound);
    return row;
  };
  /**
   * The row as it is, for a step that changed nothing (a retry, or a race lost): with the webhook of the
   * row's current version when nobody attempted it yet, so a retried step hands on what its first
   * attempt queued (starting a delivery twice is harmless: its workflow id is fixed).
   */
  const unchanged = async (exec: Kysely<Database>, row: OnrampRow): Promise<OnrampStep> => ({
    status: row.status,
    webhookDeliveryId: await findUnattemptedDelivery(
      exec,
      onrampUpdateEvent,
      `${row.id}:status:${row.status_version}`,
    ),
  });
  /** The onramp's delivery as a treasury payment, recorded on the onramp row. */
  const paymentOf = (row: OnrampRow): TreasuryPayment => ({
    chainId: row.chain_id,
    token: row.token_address as Address,
    to: row.destination_address as Address,
    amount: parseUnits(normalizeDecimal(row.destination_amount), row.token_decimals),
    noReturnTransfer: row.token_no_return,
    load: async () => {
      const current = await load(db, row.id);
      return { hash: current.tx_hash, serialized: current.tx_serialized, nonce: current.tx_nonce };
    },
    record: (previousHash, tx) => recordOnrampTransfer(db, row.id, previousHash, tx),
  });

  return {
    async loadOnramp({ onrampId }) {
      return unchanged(db, await load(db, onrampId));
    },

    async expireOnramp({ onrampId }) {
      return db.transaction().execute(async (trx) => {
        const step = await changeStatus(trx, onrampId, 'initiated', {
          status: 'expired',
          statusMessage: 'No deposit arrived before the onramp expired.',
        });
        return step ?? unchanged(trx, await load(trx, onrampId));
      });
    },

    async creditOnrampDeposit({ onrampId, deposit }) {
      return db.transaction().execute(async (trx) => {
        const row = await load(trx, onrampId);
        const deposits = row.deposits as StoredDeposit[];
        // A repeated report of the same deposit, or one after funding, changes nothing.
        if (deposits.some((d) => d.id === deposit.depositId)) return unchanged(trx, row);
        const amount = money(cents(deposit.amount));
        if (row.status !== 'initiated' && row.status !== 'held') {
          // Funded, expired or failed already: the deposit is not credited and goes back in full.
          return changeRefunds(trx, row, {
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
        const step = await changeStatus(trx, onrampId, row.status, {
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
        return step ?? unchanged(trx, await load(trx, onrampId));
      });
    },

    async sendOnrampCrypto({ onrampId }) {
      const moved = await db
        .transaction()
        .execute((trx) =>
          changeStatus(trx, onrampId, 'funds_received', { status: 'sending_crypto', statusMessage: null }),
        );
      const row = await load(db, onrampId);
      if (row.status === 'sending_crypto') await treasury.send(paymentOf(row));
      return moved ?? unchanged(db, row);
    },

    async checkOnrampTransfer({ onrampId }): Promise<OnrampTransferCheck> {
      const row = await load(db, onrampId);
      if (row.status !== 'sending_crypto' || !row.tx_hash || !row.tx_serialized) {
        return { ...(await unchanged(db, row)), transfer: 'none' };
      }
      const check = await treasury.check(paymentOf(row));
      if (check.state === 'none' || check.state === 'pending')
        return { ...(await unchanged(db, row)), transfer: 'pending' };
      if (check.state === 'reverted') {
        const step = await db.transaction().execute((trx) =>
          changeStatus(trx, onrampId, 'sending_crypto', {
            status: 'failed',
            statusMessage: `The treasury transfer ${check.hash} reverted on chain; the deposit is returned to the sending account.`,
            // The deposit amount goes back; an excess above it has its own refund.
            refunds: [
              ...row.refunds,
              newRefund('onramp_failed', onrampId, null, money(cents(row.deposit_amount))),
            ],
          }),
        );
        return { ...(step ?? (await unchanged(db, await load(db, onrampId)))), transfer: 'reverted' };
      }
      const step = await db
        .transaction()
        .execute((trx) =>
          changeStatus(trx, onrampId, 'sending_crypto', { status: 'crypto_sent', statusMessage: null }),
        );
      return { ...(step ?? (await unchanged(db, await load(db, onrampId)))), transfer: 'confirmed' };
    },

    async recordOnrampStepFailure({ onrampId, message }) {
      return db.transaction().execute(async (trx) => {
        const row = await load(trx, onrampId);
        // A retried note (its first attempt committed) changes nothing and queues no second webhook.
        if (row.status_message === printableText(message)) return unchanged(trx, row);
        const step = await changeStatus(trx, onrampId, row.status, {
          status: row.status,
          statusMessage: printableText(message),
        });
        return step ?? unchanged(trx, await load(trx, onrampId));
      });
    },

    async returnOnrampRefunds({ onrampId }) {
      const webhookDeliveryIds: string[] = [];
      let row = await load(db, onrampId);
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
        const step = await db.transaction().execute(async (trx) => {
          const current = await load(trx, onrampId);
          if (current.refunds.find((r) => r.id === pending.id)?.status !== 'pending') return null;
          return changeRefunds(trx, current, {
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
        row = await load(db, onrampId);
      }
      return { status: row.status, webhookDeliveryIds };
    },
  };
}

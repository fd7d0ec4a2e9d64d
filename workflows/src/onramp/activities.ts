/**
 * Activities of `onrampLifecycle`: credit fiat deposits, expire unfunded onramps, and send the treasury's
 * tokens exactly once (the signed transaction is recorded before its broadcast and checked before any
 * retry). Every status change is written with its `onramp_update` webhook in one transaction.
 */
import type { ChainClients } from '@checkout/chain';
import { fiatDecimals, formatUnits, normalizeDecimal, parseUnits } from '@checkout/core';
import {
  createWebhookDelivery,
  type Database,
  type Db,
  findAccountWebhookEndpoint,
  findOnrampById,
  type OnrampChange,
  type OnrampRow,
  type OnrampStatusValue,
  presentOnramp,
  recordOnrampTransfer,
  type StoredDeposit,
  transitionOnramp,
} from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { Address, Hex } from 'viem';
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
}

const cents = (decimal: string) => parseUnits(normalizeDecimal(decimal), fiatDecimals);
const money = (units: bigint) => formatUnits(units, fiatDecimals, fiatDecimals);

/** Applies a status change and queues its webhook in the same transaction; null when the change lost a race. */
async function changeStatus(
  trx: Kysely<Database>,
  id: string,
  from: readonly OnrampStatusValue[],
  change: OnrampChange,
): Promise<OnrampStep | null> {
  const row = await transitionOnramp(trx, id, from, change);
  if (!row) return null;
  const endpoint = await findAccountWebhookEndpoint(trx, row.merchant_id);
  if (!endpoint) return { status: row.status, webhookDeliveryId: null };
  const delivery = await createWebhookDelivery(trx, {
    merchantId: row.merchant_id,
    eventType: onrampUpdateEvent,
    subjectId: `${row.id}:status:${row.status_version}`,
    url: endpoint.url,
    payload: JSON.stringify({ event: onrampUpdateEvent, payload: { onramp: presentOnramp(row) } }),
  });
  return { status: row.status, webhookDeliveryId: delivery.id };
}

/** Builds the onramp activities. */
export function createOnrampActivities(deps: OnrampActivityDeps): OnrampActivities {
  const db = deps.db.kysely;
  const treasury = createTreasury({ chains: deps.chains, privateKey: deps.ramps.treasuryPrivateKey });

  const load = async (trx: Kysely<Database>, id: string): Promise<OnrampRow> => {
    const row = await findOnrampById(trx, id);
    if (!row) throw ApplicationFailure.retryable(`onramp ${id} does not exist`, onrampNotFound);
    return row;
  };
  const unchanged = (row: OnrampRow): OnrampStep => ({ status: row.status, webhookDeliveryId: null });
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
      return unchanged(await load(db, onrampId));
    },

    async expireOnramp({ onrampId }) {
      return db.transaction().execute(async (trx) => {
        const step = await changeStatus(trx, onrampId, ['initiated'], {
          status: 'expired',
          statusMessage: 'No deposit arrived before the onramp expired.',
        });
        return step ?? unchanged(await load(trx, onrampId));
      });
    },

    async creditOnrampDeposit({ onrampId, deposit }) {
      return db.transaction().execute(async (trx) => {
        const row = await load(trx, onrampId);
        const deposits = row.deposits as StoredDeposit[];
        // A repeated report of the same deposit, or one after funding, changes nothing.
        if (deposits.some((d) => d.id === deposit.depositId)) return unchanged(row);
        if (row.status !== 'initiated' && row.status !== 'held') return unchanged(row);
        const received = cents(row.received_amount) + cents(deposit.amount);
        const due = cents(row.deposit_amount);
        const funded = received >= due;
        const over = received - due;
        const step = await changeStatus(trx, onrampId, [row.status], {
          status: funded ? 'funds_received' : 'held',
          statusMessage: funded
            ? over > 0n
              ? `Received ${money(received)} ${row.fiat_currency}, ${money(over)} more than the deposit amount; the excess is held for refund.`
              : null
            : `Received ${money(received)} of ${money(due)} ${row.fiat_currency}; deposit the remaining ${money(due - received)} with the same reference.`,
          receivedAmount: money(received),
          deposits: [...deposits, { id: deposit.depositId, amount: normalizeDecimal(deposit.amount) }],
        });
        return step ?? unchanged(await load(trx, onrampId));
      });
    },

    async sendOnrampCrypto({ onrampId }) {
      const moved = await db
        .transaction()
        .execute((trx) =>
          changeStatus(trx, onrampId, ['funds_received'], { status: 'sending_crypto', statusMessage: null }),
        );
      const row = await load(db, onrampId);
      if (row.status === 'sending_crypto') await treasury.send(paymentOf(row));
      return moved ?? unchanged(row);
    },

    async checkOnrampTransfer({ onrampId }): Promise<OnrampTransferCheck> {
      const row = await load(db, onrampId);
      if (row.status !== 'sending_crypto' || !row.tx_hash || !row.tx_serialized) {
        return { ...unchanged(row), transfer: 'none' };
      }
      const check = await treasury.check(paymentOf(row));
      if (check.state === 'none' || check.state === 'pending')
        return { ...unchanged(row), transfer: 'pending' };
      if (check.state === 'reverted') {
        const step = await db.transaction().execute((trx) =>
          changeStatus(trx, onrampId, ['sending_crypto'], {
            status: 'failed',
            statusMessage: `The treasury transfer ${check.hash} reverted on chain; the deposit will be refunded.`,
          }),
        );
        return { ...(step ?? unchanged(await load(db, onrampId))), transfer: 'reverted' };
      }
      const step = await db
        .transaction()
        .execute((trx) =>
          changeStatus(trx, onrampId, ['sending_crypto'], { status: 'crypto_sent', statusMessage: null }),
        );
      return { ...(step ?? unchanged(await load(db, onrampId))), transfer: 'confirmed' };
    },
  };
}

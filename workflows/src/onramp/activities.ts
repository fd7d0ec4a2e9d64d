/**
 * Activities of `onrampLifecycle`: credit fiat deposits, expire unfunded onramps, and send the treasury's
 * tokens exactly once (the signed transaction is recorded before its broadcast and checked before any
 * retry). Every status change is written with its `onramp_update` webhook in one transaction.
 */
import {
  broadcastSignedTransaction,
  type ChainClients,
  getConfirmations,
  getTransactionState,
  prepareTokenTransfer,
} from '@checkout/chain';
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
import { type Hash, type Hex, TransactionReceiptNotFoundError } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getTransactionCount, getTransactionReceipt } from 'viem/actions';
import {
  type OnrampActivities,
  type OnrampStep,
  type OnrampTransferCheck,
  onrampNotFound,
  onrampUpdateEvent,
} from './shared.ts';

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
  const treasury = privateKeyToAccount(deps.ramps.treasuryPrivateKey);

  const load = async (trx: Kysely<Database>, id: string): Promise<OnrampRow> => {
    const row = await findOnrampById(trx, id);
    if (!row) throw ApplicationFailure.retryable(`onramp ${id} does not exist`, onrampNotFound);
    return row;
  };
  const chainOf = (row: OnrampRow) => {
    const chain = deps.chains.get(row.chain_id);
    if (!chain) {
      throw ApplicationFailure.nonRetryable(
        `no RPC endpoint for chain ${row.chain_id}`,
        'chain_not_configured',
      );
    }
    return chain;
  };
  const unchanged = (row: OnrampRow): OnrampStep => ({ status: row.status, webhookDeliveryId: null });
  // One treasury send at a time in this worker, so two onramps do not sign with the same pending nonce.
  let treasuryQueue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = treasuryQueue.then(task, task);
    treasuryQueue = run.catch(() => undefined);
    return run;
  };
  /** Broadcasts; a refusal is left to checkOnrampTransfer, which rebroadcasts or re-signs safely. */
  const tryBroadcast = async (row: OnrampRow): Promise<boolean> => {
    if (!row.tx_serialized) return false;
    try {
      await broadcastSignedTransaction({ client: chainOf(row).client, serialized: row.tx_serialized as Hex });
      return true;
    } catch {
      return false;
    }
  };

  /** Signs a fresh transfer and records it, replacing `previousHash`; the winner's row is returned. */
  const signAndRecord = async (row: OnrampRow, previousHash: string | null): Promise<OnrampRow> => {
    const prepared = await prepareTokenTransfer({
      client: chainOf(row).client,
      account: treasury,
      token: row.token_address as Hex,
      to: row.destination_address as Hex,
      amount: parseUnits(normalizeDecimal(row.destination_amount), row.token_decimals),
      noReturnTransfer: row.token_no_return,
    });
    await recordOnrampTransfer(db, row.id, previousHash, {
      hash: prepared.hash,
      serialized: prepared.serialized,
      nonce: prepared.nonce,
    });
    return load(db, row.id);
  };

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
      const row = await exclusive(async () => {
        let current = await load(db, onrampId);
        if (current.status !== 'sending_crypto') return current;
        // Recorded before broadcast: a retry of this activity finds the hash and rebroadcasts the same bytes.
        if (current.tx_hash === null) current = await signAndRecord(current, null);
        await tryBroadcast(current);
        return current;
      });
      return moved ?? unchanged(row);
    },

    async checkOnrampTransfer({ onrampId }): Promise<OnrampTransferCheck> {
      let row = await load(db, onrampId);
      if (row.status !== 'sending_crypto' || !row.tx_hash || !row.tx_serialized) {
        return { ...unchanged(row), transfer: 'none' };
      }
      const chain = chainOf(row);
      const hash = row.tx_hash as Hash;
      const state = await getTransactionState({ client: chain.client, hash });
      if (state === 'unknown') {
        if (await tryBroadcast(row)) return { ...unchanged(row), transfer: 'pending' };
        // Only when the nonce went to another mined transaction can this one never be mined: then sign anew.
        const used = await getTransactionCount(chain.client, {
          address: treasury.address,
          blockTag: 'latest',
        });
        if (row.tx_nonce !== null && used > row.tx_nonce) {
          const previous = row.tx_hash;
          row = await exclusive(async () => {
            const signed = await signAndRecord(row, previous);
            await tryBroadcast(signed);
            return signed;
          });
        }
        return { ...unchanged(row), transfer: 'pending' };
      }
      if (state === 'pending') return { ...unchanged(row), transfer: 'pending' };
      if (state === 'reverted') {
        const step = await db.transaction().execute((trx) =>
          changeStatus(trx, onrampId, ['sending_crypto'], {
            status: 'failed',
            statusMessage: `The treasury transfer ${hash} reverted on chain; the deposit will be refunded.`,
          }),
        );
        return { ...(step ?? unchanged(await load(db, onrampId))), transfer: 'reverted' };
      }
      const receipt = await getTransactionReceipt(chain.client, { hash }).catch((error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined;
        throw error;
      });
      const confirmations = await getConfirmations({
        client: chain.client,
        blockNumber: receipt?.blockNumber,
      });
      if (confirmations < chain.confirmations) return { ...unchanged(row), transfer: 'pending' };
      const step = await db
        .transaction()
        .execute((trx) =>
          changeStatus(trx, onrampId, ['sending_crypto'], { status: 'crypto_sent', statusMessage: null }),
        );
      return { ...(step ?? unchanged(await load(db, onrampId))), transfer: 'confirmed' };
    },
  };
}

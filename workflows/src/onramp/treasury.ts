/**
 * Exactly-once token transfers from the treasury, shared by onramp deliveries and offramp refunds. The
 * signed transaction is recorded (by the caller's `record`) before its broadcast; a retry finds it and
 * rebroadcasts the same bytes, which the chain includes at most once (one nonce, one hash). A new
 * transaction is signed only when the recorded one is unknown to the node and its nonce was consumed by
 * another mined transaction, so the recorded one can never be mined.
 */
import {
  broadcastSignedTransaction,
  type ChainClients,
  getConfirmations,
  getTransactionState,
  prepareTokenTransfer,
} from '@checkout/chain';
import { ApplicationFailure } from '@temporalio/common';
import { type Address, type Hash, type Hex, TransactionReceiptNotFoundError } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getTransactionCount, getTransactionReceipt } from 'viem/actions';

/** The transfer a payment has recorded so far (all null before the first signature). */
interface RecordedTransfer {
  hash: string | null;
  serialized: string | null;
  nonce: number | null;
}

/** One payment out of the treasury and where its transfer is recorded. */
export interface TreasuryPayment {
  chainId: number;
  token: Address;
  to: Address;
  /** Token base units. */
  amount: bigint;
  /** USDT-style token whose `transfer` returns nothing. */
  noReturnTransfer: boolean;
  /** The transfer recorded now, read fresh from the database. */
  load(): Promise<RecordedTransfer>;
  /** Records a signed transfer in place of `previousHash` (null for the first); false when another attempt won. */
  record(
    previousHash: string | null,
    tx: { hash: string; serialized: string; nonce: number },
  ): Promise<boolean>;
}

/** Where a recorded transfer stands on chain. */
type TreasuryTransferState =
  | { state: 'none' }
  | { state: 'pending'; hash: string }
  | { state: 'reverted'; hash: string }
  | { state: 'confirmed'; hash: string };

/** The treasury's sends and checks. */
export interface Treasury {
  address: Address;
  /** Signs the payment's transfer unless one is recorded, then broadcasts the recorded one. */
  send(payment: TreasuryPayment): Promise<RecordedTransfer>;
  /** Checks the recorded transfer: rebroadcasts a dropped one, re-signs one whose nonce went elsewhere. */
  check(payment: TreasuryPayment): Promise<TreasuryTransferState>;
}

// One send at a time per treasury address in this process, so two payments never sign with the same
// pending nonce (onramps and refunds share the treasury).
const queues = new Map<string, Promise<unknown>>();
function exclusive<T>(address: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(address) ?? Promise.resolve();
  const run = previous.then(task, task);
  queues.set(
    address,
    run.catch(() => undefined),
  );
  return run;
}

/** Builds the treasury of a private key over the configured chains. */
export function createTreasury(deps: { chains: ChainClients; privateKey: Hex }): Treasury {
  const account = privateKeyToAccount(deps.privateKey);
  const chainOf = (chainId: number) => {
    const chain = deps.chains.get(chainId);
    if (!chain) {
      throw ApplicationFailure.nonRetryable(`no RPC endpoint for chain ${chainId}`, 'chain_not_configured');
    }
    return chain;
  };
  /** Broadcasts; a refusal is left to `check`, which rebroadcasts or re-signs safely. */
  const tryBroadcast = async (chainId: number, recorded: RecordedTransfer): Promise<boolean> => {
    if (!recorded.serialized) return false;
    try {
      await broadcastSignedTransaction({
        client: chainOf(chainId).client,
        serialized: recorded.serialized as Hex,
      });
      return true;
    } catch {
      return false;
    }
  };
  /** Signs a fresh transfer and records it in place of `previousHash`; the winner's record is returned. */
  const signAndRecord = async (
    payment: TreasuryPayment,
    previousHash: string | null,
  ): Promise<RecordedTransfer> => {
    const prepared = await prepareTokenTransfer({
      client: chainOf(payment.chainId).client,
      account,
      token: payment.token,
      to: payment.to,
      amount: payment.amount,
      noReturnTransfer: payment.noReturnTransfer,
    });
    await payment.record(previousHash, {
      hash: prepared.hash,
      serialized: prepared.serialized,
      nonce: prepared.nonce,
    });
    return payment.load();
  };

  return {
    address: account.address,

    send(payment) {
      return exclusive(account.address, async () => {
        let recorded = await payment.load();
        // Recorded before broadcast: a retry finds the hash and rebroadcasts the same bytes.
        if (recorded.hash === null) recorded = await signAndRecord(payment, null);
        await tryBroadcast(payment.chainId, recorded);
        return recorded;
      });
    },

    async check(payment) {
      const recorded = await payment.load();
      if (!recorded.hash || !recorded.serialized) return { state: 'none' };
      const chain = chainOf(payment.chainId);
      const hash = recorded.hash as Hash;
      const state = await getTransactionState({ client: chain.client, hash });
      if (state === 'unknown') {
        if (await tryBroadcast(payment.chainId, recorded)) return { state: 'pending', hash };
        // Only when the nonce went to another mined transaction can this one never be mined: then sign anew.
        const used = await getTransactionCount(chain.client, {
          address: account.address,
          blockTag: 'latest',
        });
        if (recorded.nonce !== null && used > recorded.nonce) {
          const signed = await exclusive(account.address, async () => {
            const fresh = await signAndRecord(payment, hash);
            await tryBroadcast(payment.chainId, fresh);
            return fresh;
          });
          return { state: 'pending', hash: signed.hash ?? hash };
        }
        return { state: 'pending', hash };
      }
      if (state === 'pending') return { state: 'pending', hash };
      if (state === 'reverted') return { state: 'reverted', hash };
      const receipt = await getTransactionReceipt(chain.client, { hash }).catch((error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined;
        throw error;
      });
      const confirmations = await getConfirmations({
        client: chain.client,
        blockNumber: receipt?.blockNumber,
      });
      return confirmations < chain.confirmations ? { state: 'pending', hash } : { state: 'confirmed', hash };
    },
  };
}

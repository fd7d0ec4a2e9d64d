/**
 * The deposit sweeper's activity: one round moves what sessions' deposit addresses received, once it has
 * the chain's confirmations, to the merchants' receiving addresses in one `deployAndSweep` transaction
 * (many forwarders and tokens; packages/chain/src/depositForwarder.ts), sent from the gas wallet.
 *
 * - **Exactly once.** The transaction is signed here with a fixed nonce, and the claim (its raw bytes,
 *   hash and nonce, and the sessions it sweeps through which block) is committed before it is sent
 *   (`claimSweep`). A round that finds a claimed sweep settles it first: mined (its gas recorded and shared
 *   among its sessions), or, when the chain does not know it (a kill between claim and send, an endpoint
 *   that lost it), the same signed bytes are sent once more at most: one hash, one nonce, so it can never
 *   sweep twice. A sweep whose nonce another transaction took is `dropped`, and its sessions are swept by a
 *   later claim. Even a second sweep could only move a zero balance to the same merchant.
 * - **Replacing a stuck sweep.** A sweep still not mined `sweepReplaceAfterMs` after it was last sent
 *   (`SWEEP_REPLACE_AFTER_SECONDS`) is signed again with the same nonce at 12.5 % more (or the chain's
 *   current price, if higher; nodes take a replacement at 10 % more), within the gas-price ceiling: a new
 *   claim of the same nonce and sessions (`claimSweepReplacement`), committed before it is sent. Whichever of
 *   the two is mined is recorded; the other is then `dropped`, its nonce used.
 * - **Gas-price ceiling.** Above the chain's `SWEEP_MAX_GAS_PRICE_GWEI_<CHAIN>` nothing is sent; the
 *   funds wait at their addresses (which only pay the merchant) for a cheaper block.
 */
import { type ChainClient, deployAndSweepData } from '@checkout/chain';
import {
  claimSweep,
  claimSweepReplacement,
  type Database,
  type DepositSweepRow,
  findChainWatch,
  listClaimedSweeps,
  listSweepableDeposits,
  noteSweepBroadcast,
  settleSweep,
} from '@checkout/db';
import { Context } from '@temporalio/activity';
import type { Kysely } from 'kysely';
import {
  getAddress,
  type Hex,
  keccak256,
  type LocalAccount,
  parseTransaction,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  estimateGas,
  getGasPrice,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  sendRawTransaction,
  waitForTransactionReceipt,
} from 'viem/actions';
import type { WorkerResources } from '../resources.ts';
import type { SweepRound } from './shared.ts';

/** What the sweeper needs. */
export interface DepositSweepActivityDeps extends Pick<WorkerResources, 'db' | 'chains'> {
  checkout: { sweeperPrivateKey?: Hex | undefined; sweepReplaceAfterMs: number };
}

/** Most deposit addresses one sweep covers (its gas stays well under a block's limit). */
const maxPerSweep = 40;
/** How many times a claimed sweep is handed to the chain: once, and once more after an unknown outcome. */
const maxBroadcasts = 2;
/** How long a round waits for the receipt of the sweep it sent before leaving it to the next round. */
const receiptWaitMs = 20_000;

/**
 * Signs `sweep` again with its nonce at a higher price and claims it before sending it; nothing when that
 * price is above the chain's ceiling (the sweep waits as it is).
 */
async function replaceSweep(
  db: Kysely<Database>,
  chain: ChainClient,
  sweep: DepositSweepRow,
  account: LocalAccount,
): Promise<void> {
  const sent = parseTransaction(sweep.raw_transaction as Hex);
  const bumped = ((sent.gasPrice ?? 0n) * 9n + 7n) / 8n;
  const current = await getGasPrice(chain.client);
  const gasPrice = current > bumped ? current : bumped;
  if (chain.sweepMaxGasPriceWei !== undefined && gasPrice > chain.sweepMaxGasPriceWei) {
    Context.current().log.warn('a pending sweep cannot be replaced under the gas-price ceiling', {
      sweepId: sweep.id,
      gasPrice: gasPrice.toString(),
    });
    return;
  }
  const raw = await account.signTransaction({
    chainId: sweep.chain_id,
    type: 'legacy',
    to: sent.to!,
    data: sent.data!,
    nonce: Number(sweep.nonce),
    gas: sent.gas!,
    gasPrice,
  });
  const id = crypto.randomUUID();
  await claimSweepReplacement(db, { id, replaces: sweep, txHash: keccak256(raw), rawTransaction: raw });
  await noteSweepBroadcast(db, id);
  await sendRawTransaction(chain.client, { serializedTransaction: raw }).catch((error: unknown) => {
    // The next round reads the outcome of both claims of the nonce.
    Context.current().log.warn('a sweep replacement could not be sent', { error: String(error) });
  });
}

/** Builds the sweeper's activities. */
export function createDepositSweepActivities(deps: DepositSweepActivityDeps) {
  const db = deps.db.kysely;

  /**
   * Settles a claimed sweep from what the chain shows; whether its outcome is known now. Only the newest
   * claim of a nonce (`newest`) is sent again or replaced.
   */
  async function settleClaimed(
    chain: ChainClient,
    sweep: DepositSweepRow,
    account: LocalAccount,
    newest: boolean,
  ): Promise<boolean> {
    const sweeper = account.address;
    const receipt = await getTransactionReceipt(chain.client, { hash: sweep.tx_hash as Hex }).catch(
      (error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined;
        throw error;
      },
    );
    if (receipt) {
      await settleSweep(db, {
        id: sweep.id,
        status: receipt.status === 'success' ? 'mined' : 'reverted',
        gasUsed: receipt.gasUsed,
        gasPrice: receipt.effectiveGasPrice,
      });
      return true;
    }
    const used = await getTransactionCount(chain.client, { address: sweeper, blockTag: 'latest' });
    if (used > Number(sweep.nonce)) {
      // The nonce went to another transaction (this one was replaced or never sent): its sessions wait for the next claim.
      await settleSweep(db, { id: sweep.id, status: 'dropped' });
      return true;
    }
    if (!newest) return false;
    const pooled = await getTransaction(chain.client, { hash: sweep.tx_hash as Hex }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof TransactionNotFoundError) return false;
        throw error;
      },
    );
    if (!pooled && sweep.broadcasts < maxBroadcasts) {
      await noteSweepBroadcast(db, sweep.id);
      await sendRawTransaction(chain.client, { serializedTransaction: sweep.raw_transaction as Hex }).catch(
        (error: unknown) => {
          // Already known, or its nonce used meanwhile: the next round reads the outcome.
          Context.current().log.warn('a sweep could not be sent again', { error: String(error) });
        },
      );
    } else if (Date.now() - sweep.updated_at.getTime() >= deps.checkout.sweepReplaceAfterMs) {
      await replaceSweep(db, chain, sweep, account);
    }
    return false;
  }

  return {
    /** One round of the chain's sweeper: settle what was sent, then sweep what is confirmed. */
    async sweepDeposits(input: { chainId: number }): Promise<SweepRound> {
      const chain = deps.chains.get(input.chainId);
      const key = deps.checkout.sweeperPrivateKey;
      if (!chain?.depositFactory || !key) return { swept: 0 };
      const account = privateKeyToAccount(key);
      const claimed = await listClaimedSweeps(db, input.chainId);
      let pending = false;
      for (const [i, sweep] of claimed.entries()) {
        const newest = !claimed.slice(i + 1).some((later) => later.nonce === sweep.nonce);
        if (!(await settleClaimed(chain, sweep, account, newest))) pending = true;
      }
      // One sweep in flight at a time: its nonce decides the next one's.
      if (pending) return { swept: 0, held: 'pending' };
      // The head the chain's watcher last saw: a round that finds nothing to sweep asks the chain nothing.
      const watched = await findChainWatch(db, input.chainId);
      if (!watched) return { swept: 0 };
      const head = BigInt(watched.head_block);
      const confirmedBlock = head - BigInt(Math.max(1, chain.confirmations)) + 1n;
      const deposits = await listSweepableDeposits(db, {
        chainId: input.chainId,
        confirmedBlock,
        limit: maxPerSweep,
      });
      if (deposits.length === 0) return { swept: 0 };
      const gasPrice = await getGasPrice(chain.client);
      if (chain.sweepMaxGasPriceWei !== undefined && gasPrice > chain.sweepMaxGasPriceWei) {
        Context.current().log.warn('the gas price is above the sweep ceiling: the deposits wait', {
          chainId: input.chainId,
          gasPrice: gasPrice.toString(),
        });
        return { swept: 0, held: 'gas_price' };
      }
      const data = deployAndSweepData(
        deposits.map((d) => ({
          destination: getAddress(d.receivingAddress),
          reference: `0x${d.reference}`,
          tokens: d.tokens.map((t) => getAddress(t)),
        })),
      );
      const to = chain.depositFactory;
      const nonce = await getTransactionCount(chain.client, {
        address: account.address,
        blockTag: 'pending',
      });
      const gas = await estimateGas(chain.client, { account: account.address, to, data });
      const raw = await account.signTransaction({
        chainId: input.chainId,
        type: 'legacy',
        to,
        data,
        nonce,
        gas: (gas * 12n) / 10n,
        gasPrice,
      });
      const hash = keccak256(raw);
      const id = crypto.randomUUID();
      await claimSweep(db, {
        id,
        chainId: input.chainId,
        txHash: hash,
        rawTransaction: raw,
        nonce,
        sessions: deposits.map((d) => ({ sessionId: d.sessionId, throughBlock: d.throughBlock })),
      });
      await noteSweepBroadcast(db, id);
      await sendRawTransaction(chain.client, { serializedTransaction: raw });
      const receipt = await waitForTransactionReceipt(chain.client, {
        hash,
        // No longer than a replacement waits: a stuck sweep is replaced by the next round.
        timeout: Math.min(receiptWaitMs, deps.checkout.sweepReplaceAfterMs),
        pollingInterval: 100,
      }).catch(() => undefined);
      if (receipt) {
        await settleSweep(db, {
          id,
          status: receipt.status === 'success' ? 'mined' : 'reverted',
          gasUsed: receipt.gasUsed,
          gasPrice: receipt.effectiveGasPrice,
        });
      }
      return { swept: deposits.length };
    },
  };
}

/** The sweeper's activities' type, for `proxyActivities`. */
export type DepositSweepActivities = ReturnType<typeof createDepositSweepActivities>;

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
 * - **Gas-price ceiling.** Above the chain's `SWEEP_MAX_GAS_PRICE_GWEI_<CHAIN>` nothing is sent; the
 *   funds wait at their addresses (which only pay the merchant) for a cheaper block.
 */
import { type ChainClient, deployAndSweepData } from '@checkout/chain';
import {
  claimSweep,
  type DepositSweepRow,
  findChainWatch,
  listClaimedSweeps,
  listSweepableDeposits,
  noteSweepBroadcast,
  settleSweep,
} from '@checkout/db';
import { Context } from '@temporalio/activity';
import { type Address, getAddress, type Hex, keccak256, TransactionReceiptNotFoundError } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  estimateGas,
  getGasPrice,
  getTransactionCount,
  getTransactionReceipt,
  sendRawTransaction,
  waitForTransactionReceipt,
} from 'viem/actions';
import type { WorkerResources } from '../resources.ts';
import type { SweepRound } from './shared.ts';

/** What the sweeper needs. */
export interface DepositSweepActivityDeps extends Pick<WorkerResources, 'db' | 'chains'> {
  checkout: { sweeperPrivateKey?: Hex | undefined };
}

/** Most deposit addresses one sweep covers (its gas stays well under a block's limit). */
const maxPerSweep = 40;
/** How many times a claimed sweep is handed to the chain: once, and once more after an unknown outcome. */
const maxBroadcasts = 2;
/** How long a round waits for the receipt of the sweep it sent before leaving it to the next round. */
const receiptWaitMs = 20_000;

/** Builds the sweeper's activities. */
export function createDepositSweepActivities(deps: DepositSweepActivityDeps) {
  const db = deps.db.kysely;

  /** Settles a claimed sweep from what the chain shows; whether its outcome is known now. */
  async function settleClaimed(
    chain: ChainClient,
    sweep: DepositSweepRow,
    sweeper: Address,
  ): Promise<boolean> {
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
    if (sweep.broadcasts < maxBroadcasts) {
      await noteSweepBroadcast(db, sweep.id);
      await sendRawTransaction(chain.client, { serializedTransaction: sweep.raw_transaction as Hex }).catch(
        (error: unknown) => {
          // Already known, or its nonce used meanwhile: the next round reads the outcome.
          Context.current().log.warn('a sweep could not be sent again', { error: String(error) });
        },
      );
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
      for (const sweep of await listClaimedSweeps(db, input.chainId)) {
        // One sweep in flight at a time: its nonce decides the next one's.
        if (!(await settleClaimed(chain, sweep, account.address))) return { swept: 0, held: 'pending' };
      }
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
        timeout: receiptWaitMs,
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

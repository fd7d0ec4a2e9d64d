/**
 * The chain watcher's tick: reads each new block range once for every checkout still waiting for a
 * payment on the chain and every quote's deposit address still watched, and tells those checkouts and
 * quotes what arrived.
 *
 * - **Addresses.** The receiving addresses of the open sessions, each from the earliest block one of its
 *   sessions looks from. An address new to the watcher (or needed from an earlier block) is read back to
 *   that block first, so a session opened while a tick ran misses nothing.
 * - **Once.** Transfers are recorded (unique per chain, hash and log index) in the same transaction that
 *   moves the position on, so a watcher stopped anywhere resumes without dropping or doubling one.
 * - **Reorganisations.** The hash of the last block read is kept; when the chain has another block there,
 *   the watcher steps back by the chain's confirmations, forgets what it read from there and reads again.
 * - **Hand-over.** Each recorded transfer is signalled to the checkouts it may pay (by receiving address
 *   and sender, or any sender for a session paid from another device) and to the quote whose deposit
 *   address it reached, and marked once they were told; a tick that fails before that tells them again.
 *   The checkout matches from the recorded transfers with the same rules as ever (see
 *   ../checkout/activities.ts `matchPayment`); the quote looks at what reached its address once its
 *   outcome is known and returns what no payout uses (see ../quote/activities.ts `findQuoteRefunds`),
 *   starting a run again for a quote whose workflow had ended.
 */
import { type ChainClients, firstBlockAtOrAfter, readTransfers } from '@checkout/chain';
import type { TokenRegistry } from '@checkout/core';
import {
  type Db,
  findChainWatch,
  forgetTransfersFrom,
  listQuotesWithoutWatchStart,
  listWaitingAddresses,
  listWatchedAddresses,
  recordChainProgress,
  setQuoteDepositScanBlock,
} from '@checkout/db';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { type Address, getAddress } from 'viem';
import { getBlock, getBlockNumber } from 'viem/actions';
import { handOverTransfers } from './handOver.ts';
import type { WatchTick } from './shared.ts';

/** What the watcher needs. */
export interface ChainWatcherActivityDeps {
  db: Db;
  chains: ChainClients;
  tokens: TokenRegistry;
  checkout: {
    pollIntervalMs: number;
    scanIntervalMs?: number;
    /** A session's life without a timer, and the grace after its end during which it may still be paid. */
    sessionTtlMinutes?: number;
    graceMinutes?: number;
  };
}

/** Most blocks one tick reads; a watcher far behind catches up tick after tick without waiting. */
const maxBlocksPerTick = 2_000n;
/** How far before a quote's creation its deposit address is read from when that block is not known. */
const quoteStartMarginMs = 15 * 60_000;

export function createChainWatcherActivities(deps: ChainWatcherActivityDeps) {
  const db = deps.db.kysely;
  /** The scan window of a session (the checkout's own defaults when unset). */
  const sessionWindows = {
    sessionTtlMinutes: deps.checkout.sessionTtlMinutes ?? 1440,
    graceMinutes: deps.checkout.graceMinutes ?? 60,
  };
  return {
    /** One tick of the chain's watcher: read, record, tell. */
    async watchChainTick(input: { chainId: number }): Promise<WatchTick> {
      const chain = deps.chains.get(input.chainId);
      const info = deps.tokens.chainById(input.chainId);
      if (!chain || !info) {
        throw ApplicationFailure.nonRetryable(
          `chain ${input.chainId} is not configured`,
          'ChainNotConfigured',
        );
      }
      const interval = deps.checkout.scanIntervalMs ?? deps.checkout.pollIntervalMs;
      const { graceMinutes } = sessionWindows;
      const head = await getBlockNumber(chain.client, { cacheTime: 0 });
      // Quotes made before this chain's watcher first ran: watched from their creation's block.
      for (const quote of await listQuotesWithoutWatchStart(db, { chainId: input.chainId, graceMinutes })) {
        const since = await firstBlockAtOrAfter(
          chain.client,
          new Date(quote.created_at.getTime() - quoteStartMarginMs),
        );
        await setQuoteDepositScanBlock(db, quote.id, since);
      }
      const waiting = await listWaitingAddresses(db, { chainId: input.chainId, ...sessionWindows });
      const position = await findChainWatch(db, input.chainId);
      let nextBlock: bigint;
      let lastBlockHash: string | null = position?.last_block_hash ?? null;
      if (!position) {
        nextBlock = head + 1n;
        for (const since of waiting.values()) if (since < nextBlock) nextBlock = since;
      } else {
        nextBlock = BigInt(position.next_block);
      }

      // A chain behind the position (a shorter fork, or a local chain started afresh), or another block
      // where the last one read was: step back by the confirmations and read again.
      const stepBack = (from: bigint) => {
        const back = from - BigInt(chain.confirmations) - 1n;
        return back < 0n ? 0n : back;
      };
      let rewound = false;
      if (nextBlock > head + 1n) {
        nextBlock = stepBack(head + 1n);
        rewound = true;
      } else if (lastBlockHash !== null && nextBlock > 0n) {
        const last = await getBlock(chain.client, { blockNumber: nextBlock - 1n });
        if (last.hash?.toLowerCase() !== lastBlockHash) {
          nextBlock = stepBack(nextBlock);
          rewound = true;
        }
      }
      if (rewound) {
        lastBlockHash = null;
        await forgetTransfersFrom(db, { chainId: input.chainId, fromBlock: nextBlock });
        Context.current().log.warn('the chain was reorganised: reading again', {
          chainId: input.chainId,
          fromBlock: nextBlock.toString(),
        });
      }

      const tokens = [...new Set(info.paymentTokens.map((t) => getAddress(t.address)))] as Address[];
      const covered = rewound ? new Map<string, bigint>() : await listWatchedAddresses(db, input.chainId);
      const dropped = [...covered.keys()].filter((a) => !waiting.has(a));
      const nowCovered = new Map<string, bigint>();
      const transfers = [];
      // Addresses new to the watcher, or needed from an earlier block: read back to where they are needed.
      for (const [address, since] of waiting) {
        const from = covered.get(address);
        if (from !== undefined && from <= since) continue;
        const end = (from !== undefined && from < nextBlock ? from : nextBlock) - 1n;
        if (since <= end) {
          transfers.push(
            ...(await readTransfers({
              client: chain.client,
              tokens,
              to: [getAddress(address)],
              fromBlock: since,
              toBlock: end,
            })),
          );
        }
        nowCovered.set(address, since);
      }
      let newNext = nextBlock;
      if (head >= nextBlock) {
        const to = head - nextBlock + 1n > maxBlocksPerTick ? nextBlock + maxBlocksPerTick - 1n : head;
        if (waiting.size > 0) {
          transfers.push(
            ...(await readTransfers({
              client: chain.client,
              tokens,
              to: [...waiting.keys()].map((a) => getAddress(a)),
              fromBlock: nextBlock,
              toBlock: to,
            })),
          );
          lastBlockHash = (await getBlock(chain.client, { blockNumber: to })).hash?.toLowerCase() ?? null;
        } else {
          // Nothing waits on this chain: the range is passed without a read.
          lastBlockHash = null;
        }
        newNext = to + 1n;
      }
      const recorded = await recordChainProgress(db, {
        chainId: input.chainId,
        transfers,
        covered: nowCovered,
        dropped,
        position: { nextBlock: newNext, lastBlockHash, headBlock: head },
      });

      const activity = Context.current();
      const log = activity.log;
      const signalled = await handOverTransfers(
        {
          db,
          client: activity.client,
          taskQueue: activity.info.taskQueue,
          log: {
            info: (fields, message) => log.info(message, fields as Record<string, unknown>),
            warn: (fields, message) => log.warn(message, fields as Record<string, unknown>),
          },
        },
        input.chainId,
        sessionWindows,
      );
      return {
        nextBlock: newNext.toString(),
        headBlock: head.toString(),
        recorded: recorded.length,
        signalled,
        // Behind the head: the next range at once.
        sleepMs: newNext <= head ? 1 : interval,
      };
    },
  };
}

export type ChainWatcherActivities = ReturnType<typeof createChainWatcherActivities>;

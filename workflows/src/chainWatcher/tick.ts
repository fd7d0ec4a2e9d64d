/**
 * One tick of a chain's watcher: reads the new blocks once for every checkout still waiting for a payment
 * on the chain and every quote's deposit address still watched, and records what arrived; over the same
 * blocks it reads the transfers out someone awaits (transfersOut.ts) and hands them to their reactions.
 *
 * - **Addresses.** The receiving addresses of the open sessions, each from the earliest block one of its
 *   sessions looks from. An address new to the watcher (or needed from an earlier block) is read back to
 *   that block first, so a session opened while a tick ran misses nothing.
 * - **Only complete blocks are passed.** A provider's load balancer may answer `eth_getLogs` from a node
 *   behind the one that gave the head, leaving the newest blocks' logs out without an error. So logs are
 *   read only up to a block an endpoint proved it holds (its transport asks `eth_getLogs` by the block's
 *   hash first, which a node that has not reached it refuses, and moves to a fresher endpoint). When no
 *   endpoint holds the head's logs yet, the tick reads less far (remembering by how much for the next
 *   tick), whatever the lag: the position never passes a block whose logs were not proven.
 * - **The head is the best of every endpoint's.** Each tick asks every endpoint for its head; one behind
 *   the best is stale and not asked for logs. A head below the position while a fresher one was seen in
 *   the last minute is a stale endpoint's, not a shorter chain: the watcher waits, it does not rewind.
 * - **A tail for reorganisations.** The position moves only over blocks at least `tail` blocks below the
 *   head (the chain's confirmations, and never fewer than {@link minTailBlocks}): the blocks above it are
 *   read again on every tick until they are that deep, so a block replaced there is noticed. Their
 *   transfers are recorded (and handed over) the first time they are seen; reading them again records
 *   nothing twice. A transfer recorded earlier that a read leaves out tells which: when the chain still
 *   has its block, the read was incomplete and the position stays before it; when the block was
 *   replaced, the transfer is forgotten.
 * - **Once.** Transfers are recorded (unique per chain, hash and log index) in the same transaction that
 *   moves the position on, so a watcher stopped anywhere resumes without dropping or doubling one.
 * - **Reorganisations.** The hash of the block before the position is kept; when the chain has another
 *   block there, the watcher steps back by the chain's confirmations, forgets what it read from there and
 *   reads again. Replaced blocks in the tail are noticed as above.
 */
import {
  type ChainClient,
  EndpointStaleError,
  firstBlockAtOrAfter,
  readTransfers,
  recentPeak,
  type TransferLog,
} from '@checkout/chain';
import {
  type Db,
  findChainWatch,
  forgetTransfersFrom,
  forgetTransfersOfBlock,
  listQuotesWithoutWatchStart,
  listTransfersRecordedFrom,
  listWaitingAddresses,
  listWatchedAddresses,
  recordChainProgress,
  setQuoteDepositScanBlock,
} from '@checkout/db';
import { Context } from '@temporalio/activity';
import { type Address, BaseError, getAddress } from 'viem';
import { getBlock, getBlockNumber } from 'viem/actions';
import type { ChainReactions } from './facts.ts';
import { readTransfersOut } from './transfersOut.ts';

/** Most blocks one tick reads; a watcher far behind catches up tick after tick without waiting. */
const maxBlocksPerTick = 2_000n;
/** The fewest newest blocks read again until they are deep enough that a reorganisation there is unlikely. */
const minTailBlocks = 12;
/** Reads one tick makes at most, each less far, when no endpoint holds the logs up to where it reads. */
const maxLogsAttempts = 10;
/** By how many blocks below the head each chain's logs were last proven, and when an endpoint last lacked them. */
const logsBehind = new Map<number, { blocks: bigint; missedAt: number }>();
/** How long after an endpoint last lacked the head's logs a tick starts below the head. */
const logsBehindMs = 10_000;
/** How far before a quote's creation its deposit address is read from when that block is not known. */
const quoteStartMarginMs = 15 * 60_000;

/** What a tick did. */
export interface TickOutcome {
  /** The first block whose logs are not known complete. */
  nextBlock: bigint;
  /** The newest block read (the tail's end). */
  readTo: bigint;
  head: bigint;
  /** Transfers recorded for the first time. */
  recorded: number;
  /** Whether the tick stopped short of the head for its range cap (a watcher far behind). */
  behind: boolean;
}

/** What the tick reads with; `seen.head` is set as soon as the provider's head is known (a failed tick reports it). */
export interface TickContext {
  db: Db['kysely'];
  chain: ChainClient;
  tokens: readonly Address[];
  windows: { sessionTtlMinutes: number; graceMinutes: number };
  seen: { head?: bigint; headAt?: Date };
  /** Who is told of the transfers out read (the reaction table). */
  reactions: Pick<ChainReactions, 'awaitedTransfersOut' | 'transfersOut'>;
}

export async function readNewBlocks(ctx: TickContext): Promise<TickOutcome> {
  const { db, chain, windows } = ctx;
  const chainId = chain.chainId;
  const head = chain.readHeads
    ? await chain.readHeads()
    : await getBlockNumber(chain.client, { cacheTime: 0 });
  // The best head any endpoint gave lately (a stale endpoint's lower head is not what /health reports).
  const peak = chain.endpoints ? recentPeak(chain.endpoints) : undefined;
  const reported =
    peak !== undefined && peak > head && chain.endpoints?.peak
      ? { head: peak, at: new Date(chain.endpoints.peak.at) }
      : { head, at: new Date() };
  ctx.seen.head = reported.head;
  ctx.seen.headAt = reported.at;
  // Quotes made before this chain's watcher first ran: watched from their creation's block.
  for (const quote of await listQuotesWithoutWatchStart(db, {
    chainId,
    graceMinutes: windows.graceMinutes,
  })) {
    const since = await firstBlockAtOrAfter(
      chain.client,
      new Date(quote.created_at.getTime() - quoteStartMarginMs),
    );
    await setQuoteDepositScanBlock(db, quote.id, since);
  }
  const waiting = await listWaitingAddresses(db, { chainId, ...windows });
  const awaitedOut = await ctx.reactions.awaitedTransfersOut(chainId);
  const start = await startingPoint(ctx, head, waiting, peak);
  const covered = start.rewound ? new Map<string, bigint>() : await listWatchedAddresses(db, chainId);
  const dropped = [...covered.keys()].filter((a) => !waiting.has(a));
  const nowCovered = new Map<string, bigint>();
  const tail = BigInt(Math.max(chain.confirmations, minTailBlocks));
  const recordedTail = await listTransfersRecordedFrom(db, { chainId, fromBlock: start.nextBlock });
  const known = new Map(
    recordedTail.map((r) => [r.tx_hash, { from: getAddress(r.tx_from), input: r.tx_input }] as const),
  );
  const transfers: TransferLog[] = [];
  // Addresses new to the watcher, or needed from an earlier block: read back to where they are needed.
  for (const [address, since] of waiting) {
    const from = covered.get(address);
    if (from !== undefined && from <= since) continue;
    const end = (from !== undefined && from < start.nextBlock ? from : start.nextBlock) - 1n;
    if (since <= end) {
      transfers.push(
        ...(await readTransfers({
          client: chain.client,
          tokens: ctx.tokens,
          to: [getAddress(address)],
          fromBlock: since,
          toBlock: end,
          known,
        })),
      );
    }
    nowCovered.set(address, since);
  }

  let nextBlock = start.nextBlock;
  let lastBlockHash = start.lastBlockHash;
  let readTo = nextBlock - 1n;
  const capped = head - nextBlock + 1n > maxBlocksPerTick;
  let to = capped ? nextBlock + maxBlocksPerTick - 1n : head;
  if (head >= nextBlock && (waiting.size > 0 || awaitedOut.length > 0)) {
    // Only as far as an endpoint proves it holds the logs: read less far while none does, starting where
    // the last tick's logs were proven (half as deep: a node that lagged catches up).
    const lagging = logsBehind.get(chainId);
    const hint = head - (lagging && Date.now() - lagging.missedAt < logsBehindMs ? lagging.blocks : 0n);
    let missedAt = lagging?.missedAt ?? 0;
    if (hint < to) to = hint < nextBlock ? nextBlock : hint;
    let fresh: TransferLog[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        fresh = await readTransfers({
          client: chain.client,
          tokens: ctx.tokens,
          to: [...waiting.keys()].map((a) => getAddress(a)),
          fromBlock: nextBlock,
          toBlock: to,
          known,
        });
        break;
      } catch (error) {
        if (!logsNotHeld(error) || attempt >= maxLogsAttempts) throw error;
        missedAt = Date.now();
        const lower = head - (2n * (head - to) + 1n);
        if (lower < nextBlock) {
          to = nextBlock - 1n;
          break;
        }
        to = lower;
      }
    }
    logsBehind.set(chainId, { blocks: (head - to) / 2n, missedAt });
    if (to >= nextBlock) {
      transfers.push(...fresh);
      readTo = to;
      // The same blocks, for the transfers out someone awaits.
      await readTransfersOut(ctx, awaitedOut, { fromBlock: nextBlock, toBlock: to });
      const incompleteFrom = await checkTail(ctx, recordedTail, fresh, to);
      let certainTo = to < head - tail ? to : head - tail;
      if (incompleteFrom !== undefined && incompleteFrom - 1n < certainTo) certainTo = incompleteFrom - 1n;
      if (certainTo >= nextBlock) nextBlock = certainTo + 1n;
      // The block before the position, kept to notice a reorganisation (also after a rewind that did not move on).
      if ((certainTo >= start.nextBlock || lastBlockHash === null) && nextBlock > 0n) {
        lastBlockHash =
          (await getBlock(chain.client, { blockNumber: nextBlock - 1n })).hash?.toLowerCase() ?? null;
      }
    }
  } else if (head >= nextBlock) {
    // Nothing waits on this chain: the range is passed without a read.
    nextBlock = to + 1n;
    readTo = to;
    lastBlockHash = null;
  }
  const recorded = await recordChainProgress(db, {
    chainId,
    transfers,
    covered: nowCovered,
    dropped,
    position: { nextBlock, lastBlockHash, headBlock: reported.head, headSeenAt: reported.at },
    readToBlock: readTo,
  });
  return { nextBlock, readTo, head: reported.head, recorded: recorded.length, behind: capped };
}

/** Whether `error` says no endpoint holds the logs up to the block asked. */
function logsNotHeld(error: unknown): boolean {
  const stale = (e: unknown) => e instanceof EndpointStaleError && e.logs;
  return stale(error) || (error instanceof BaseError && error.walk(stale) !== null);
}

/**
 * Where this tick reads from: the recorded position, or (first tick) the earliest block a waiting address
 * needs. A chain behind the position (a shorter fork, or a local chain started afresh: no endpoint gave
 * a head that far in the last minute), or another block where the block before the position was: step
 * back by the confirmations and read again.
 */
async function startingPoint(
  ctx: TickContext,
  head: bigint,
  waiting: ReadonlyMap<string, bigint>,
  peak: bigint | undefined,
): Promise<{ nextBlock: bigint; lastBlockHash: string | null; rewound: boolean }> {
  const { db, chain } = ctx;
  const position = await findChainWatch(db, chain.chainId);
  if (!position) {
    let nextBlock = head + 1n;
    for (const since of waiting.values()) if (since < nextBlock) nextBlock = since;
    return { nextBlock, lastBlockHash: null, rewound: false };
  }
  let nextBlock = BigInt(position.next_block);
  const stepBack = (from: bigint) => {
    const back = from - BigInt(chain.confirmations) - 1n;
    return back < 0n ? 0n : back;
  };
  let rewound = false;
  if (nextBlock > head + 1n) {
    // A stale endpoint's head: the position waits for a fresh one.
    if (peak !== undefined && peak + 1n >= nextBlock) {
      return { nextBlock, lastBlockHash: position.last_block_hash, rewound };
    }
    nextBlock = stepBack(head + 1n);
    rewound = true;
  } else if (position.last_block_hash !== null && nextBlock > 0n) {
    const last = await getBlock(chain.client, { blockNumber: nextBlock - 1n });
    if (last.hash?.toLowerCase() !== position.last_block_hash) {
      nextBlock = stepBack(nextBlock);
      rewound = true;
    }
  }
  if (!rewound) return { nextBlock, lastBlockHash: position.last_block_hash, rewound };
  await forgetTransfersFrom(db, { chainId: chain.chainId, fromBlock: nextBlock });
  Context.current().log.warn('the chain was reorganised: reading again', {
    chainId: chain.chainId,
    fromBlock: nextBlock.toString(),
  });
  return { nextBlock, lastBlockHash: null, rewound };
}

/**
 * Compares the transfers recorded in the tail with those just read. A recorded transfer the read left out
 * (or found in another block) is looked up: when the chain replaced its block, it is forgotten (and read
 * again where the chain now has it); when the chain still has it, the read was incomplete from that
 * block, which is returned.
 */
async function checkTail(
  ctx: TickContext,
  recorded: Awaited<ReturnType<typeof listTransfersRecordedFrom>>,
  fresh: readonly TransferLog[],
  to: bigint,
): Promise<bigint | undefined> {
  const read = new Map(
    fresh.map((t) => [`${t.txHash.toLowerCase()}:${t.logIndex}`, t.blockHash.toLowerCase()]),
  );
  const suspect = new Map<bigint, string>();
  for (const r of recorded) {
    const block = BigInt(r.block_number);
    if (block > to) continue;
    const hash = read.get(`${r.tx_hash}:${r.log_index}`);
    if (hash !== r.block_hash) suspect.set(block, r.block_hash);
  }
  let incompleteFrom: bigint | undefined;
  for (const [blockNumber, blockHash] of [...suspect].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const now = await getBlock(ctx.chain.client, { blockNumber }).catch(() => undefined);
    if (now?.hash && now.hash.toLowerCase() !== blockHash) {
      await forgetTransfersOfBlock(ctx.db, { chainId: ctx.chain.chainId, blockNumber, blockHash });
    } else if (incompleteFrom === undefined) {
      incompleteFrom = blockNumber;
      Context.current().log.warn('the logs read left out a recorded transfer: the block is read again', {
        chainId: ctx.chain.chainId,
        block: blockNumber.toString(),
      });
    }
  }
  return incompleteFrom;
}

/**
 * The reaction table: what follows each fact the chain watcher records, one row per fact, each naming the
 * family step that reacts. The watcher only reads the chain and records (chainWatcher/); the families
 * react here, and nowhere else is a chain fact turned into a workflow call, a webhook or an e-mail.
 *
 * | Fact | Reactions |
 * | --- | --- |
 * | `transfer.recorded` (a transfer in, in the transaction that marks it told) | the checkouts it may pay are signalled (`tellSessionsOfTransfer`, checkout/transferRecorded.ts); the quote whose deposit address it reached is told (`reportDepositOfTransfer`, quote/start.ts) |
 * | `transfer.out` awaited | the refunds ready to pay (`awaitedRefundPayments`, refund/recognise.ts) |
 * | `transfer.out` (read as awaited) | each is recorded against the refund it goes to; a refund paid in full moves to `sent`, one paid in part is announced: its webhook and its workflow's signal (`recogniseRefundPayments`, refund/recognise.ts) |
 * | `blocks.read` (after each tick) | transfers no session can take any more become unmatched transfers, announced (`settleTransfers`, unmatched/activities.ts); payments and unmatched transfers in blocks a reorganisation took away are reversed or moved, announced (`recheckPayments`, reorg/activities.ts) |
 */
import type { ChainReactions } from './chainWatcher/facts.ts';
import { tellSessionsOfTransfer } from './checkout/transferRecorded.ts';
import { reportDepositOfTransfer } from './quote/start.ts';
import { awaitedRefundPayments, recogniseRefundPayments } from './refund/recognise.ts';
import type { ReorgActivities } from './reorg/activities.ts';
import type { WorkerResources } from './resources.ts';
import type { UnmatchedActivities } from './unmatched/activities.ts';

/** What the reactions need. */
export interface ReactionDeps extends Pick<WorkerResources, 'db' | 'secrets' | 'publicBaseUrl'> {
  checkout: { sessionTtlMinutes?: number; graceMinutes?: number };
}

/** The reactions to the chain watcher's facts, over the families' steps. */
export function createChainReactions(
  deps: ReactionDeps,
  families: {
    unmatched: Pick<UnmatchedActivities, 'settleTransfers'>;
    reorg: Pick<ReorgActivities, 'recheckPayments'>;
  },
): ChainReactions {
  const db = deps.db.kysely;
  const windows = {
    sessionTtlMinutes: deps.checkout.sessionTtlMinutes ?? 1440,
    graceMinutes: deps.checkout.graceMinutes ?? 60,
  };
  return {
    transferRecorded: async (trx, transfer) => [
      ...(await tellSessionsOfTransfer(trx, transfer, windows)),
      ...(await reportDepositOfTransfer(trx, transfer)),
    ],
    awaitedTransfersOut: (chainId) => awaitedRefundPayments(db, chainId),
    transfersOut: async (chainId, transfers) => {
      await recogniseRefundPayments(db, deps, chainId, transfers);
    },
    blocksRead: async (chainId) => {
      await families.unmatched.settleTransfers({ chainId });
      await families.reorg.recheckPayments({ chainId });
    },
  };
}

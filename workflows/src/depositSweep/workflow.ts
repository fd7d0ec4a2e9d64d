/**
 * `depositSweeper`: one per chain whose phone payments get deposit addresses. Rounds forever: each round
 * (activities.ts) settles the sweep sent before and sweeps the deposit addresses holding confirmed
 * payments into their merchants' receiving addresses, in one transaction; between rounds it sleeps. What
 * it sent is claimed in the database before it is sent, so a sweeper killed anywhere resumes without
 * sweeping twice.
 */
import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { DepositSweepActivities } from './activities.ts';
import type { DepositSweeperInput } from './shared.ts';

const sweep = proxyActivities<DepositSweepActivities>({
  startToCloseTimeout: '2 minutes',
  // A chain or database outage is waited out; a retried round starts by settling what was claimed.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Between two rounds. */
const roundIntervalMs = 3_000;
/** Rounds per run before the history starts afresh. */
const roundsPerRun = 500;

/** The sweeper of one chain. */
export async function depositSweeper(input: DepositSweeperInput): Promise<void> {
  for (let round = 0; round < roundsPerRun; round++) {
    await sweep.sweepDeposits({ chainId: input.chainId });
    await sleep(roundIntervalMs);
  }
  await continueAsNew<typeof depositSweeper>(input);
}

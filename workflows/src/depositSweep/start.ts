/** Client-side calls of the deposit sweeper family: one sweeper per chain in `deposit_address` mode. */
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { type DepositSweeperInput, depositSweeperWorkflowId } from './shared.ts';

/** Starts the sweeper of each chain unless it runs already; safe to call at every start. */
export async function ensureDepositSweepers(
  client: Client,
  options: { taskQueue: string; chains: ReadonlyArray<{ chainId: number; name: string }> },
): Promise<number> {
  let started = 0;
  for (const chain of options.chains) {
    const input: DepositSweeperInput = { chainId: chain.chainId };
    try {
      await client.workflow.start('depositSweeper', {
        workflowId: depositSweeperWorkflowId(chain.chainId, options.taskQueue),
        taskQueue: options.taskQueue,
        args: [input],
        staticSummary: `Deposit sweeper · ${chain.name} (${chain.chainId})`,
        staticDetails:
          'Moves confirmed payments from deposit addresses to the merchants, many per transaction.',
      });
      started++;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  return started;
}

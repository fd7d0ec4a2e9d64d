/** Client-side calls of the chain watcher family: starting one watcher per configured chain. */
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { type ChainWatcherInput, chainWatcherWorkflowId } from './shared.ts';

/**
 * Starts the watcher of each chain unless it runs already (one per chain, whichever process asks). Safe
 * to call at every start and on a timer: a watcher that failed or was terminated is started again.
 */
export async function ensureChainWatchers(
  client: Client,
  options: { taskQueue: string; chains: ReadonlyArray<{ chainId: number; name: string }> },
): Promise<number> {
  let started = 0;
  for (const chain of options.chains) {
    const input: ChainWatcherInput = { chainId: chain.chainId };
    try {
      await client.workflow.start('chainWatcher', {
        workflowId: chainWatcherWorkflowId(chain.chainId, options.taskQueue),
        taskQueue: options.taskQueue,
        args: [input],
        staticSummary: `Chain watcher · ${chain.name} (${chain.chainId})`,
        staticDetails:
          'Reads new blocks once for every open checkout on the chain; its memo shows its position.',
      });
      started++;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  return started;
}

/** Names and types shared by the deposit sweeper's workflow, activities and starter. */

/** The sweeper of one chain. */
export interface DepositSweeperInput {
  chainId: number;
}

/** What one round of the sweeper did. */
export interface SweepRound {
  /** Sessions whose deposit addresses the round's sweep covers (0: none sent). */
  swept: number;
  /** Why nothing was sent although something waits: the gas price is above the chain's ceiling, or an earlier sweep's outcome is not known yet. */
  held?: 'gas_price' | 'pending';
}

/** The sweeper's workflow id on a task queue: one per chain. */
export function depositSweeperWorkflowId(chainId: number, taskQueue: string): string {
  return `deposit-sweeper-${taskQueue}-${chainId}`;
}

/** Starting and signalling an onramp's `onrampLifecycle` workflow from the API (client side). */
import type { Client } from '@temporalio/client';
import type { WorkflowSummary } from '../shared.ts';
import {
  type OnrampDeposit,
  type OnrampLifecycleInput,
  type OnrampLifecycleWorkflow,
  onrampDepositSignal,
  onrampWorkflowId,
  onrampWorkflowType,
} from './shared.ts';

/** Starts the onramp's lifecycle; a running one is reused. */
export async function startOnrampLifecycle(
  client: Client,
  taskQueue: string,
  input: OnrampLifecycleInput,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.start<OnrampLifecycleWorkflow>(onrampWorkflowType, {
    workflowId: onrampWorkflowId(input.onrampId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    ...summary,
  });
}

/** Delivers a deposit, starting the lifecycle when it is not running (e.g. Temporal was down at create). */
export async function signalOnrampDeposit(
  client: Client,
  taskQueue: string,
  input: OnrampLifecycleInput,
  deposit: OnrampDeposit,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.signalWithStart<OnrampLifecycleWorkflow, [OnrampDeposit]>(onrampWorkflowType, {
    workflowId: onrampWorkflowId(input.onrampId),
    taskQueue,
    args: [input],
    signal: onrampDepositSignal,
    signalArgs: [deposit],
    ...summary,
  });
}

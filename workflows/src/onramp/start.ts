/** Starting and signalling an onramp's `onrampLifecycle` workflow from the API (client side). */
import type { OnrampRow } from '@checkout/db';
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

/** The onramp's workflow input. */
export function onrampLifecycleInput(
  row: Pick<OnrampRow, 'id' | 'merchant_id' | 'user_id' | 'expires_at'>,
): OnrampLifecycleInput {
  return {
    onrampId: row.id,
    merchantId: row.merchant_id,
    userId: row.user_id,
    expiresAt: row.expires_at.toISOString(),
  };
}

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

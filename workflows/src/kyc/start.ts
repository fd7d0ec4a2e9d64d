/** Starting and signalling a user's `kycOnboarding` workflow from the API (client side). */
import type { Client } from '@temporalio/client';
import type { WorkflowSummary } from '../shared.ts';
import {
  type KycEvent,
  type KycOnboardingInput,
  type KycOnboardingWorkflow,
  kycEventSignal,
  kycWorkflowId,
  kycWorkflowType,
} from './shared.ts';

/** Starts the user's onboarding; a running one is reused. */
export async function startKycOnboarding(
  client: Client,
  taskQueue: string,
  input: KycOnboardingInput,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.start<KycOnboardingWorkflow>(kycWorkflowType, {
    workflowId: kycWorkflowId(input.userId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    ...summary,
  });
}

/** Delivers a KYC event, starting a new run of the user's onboarding when none is running. */
export async function signalKycOnboarding(
  client: Client,
  taskQueue: string,
  input: KycOnboardingInput,
  event: KycEvent,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.signalWithStart<KycOnboardingWorkflow, [KycEvent]>(kycWorkflowType, {
    workflowId: kycWorkflowId(input.userId),
    taskQueue,
    args: [input],
    signal: kycEventSignal,
    signalArgs: [event],
    ...summary,
  });
}

/** Starting and signalling a user's `kycOnboarding` workflow from the API (client side). */
import { ApiError, temporalUnavailable } from '@checkout/core';
import type { Client } from '@temporalio/client';
import type { WorkflowSummary } from '../shared.ts';
import { kycWorkflowSummary } from '../summaries.ts';
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

/**
 * Delivers a KYC event of the user (a provider's decision, a step of the KYC page) to its onboarding, or
 * refuses with a 503 saying the decision was not taken, so the caller can retry.
 */
export async function deliverKycEvent(
  deps: { temporal?: { client: Client } | undefined; taskQueue: string },
  user: { id: string; merchant_id: string },
  event: KycEvent,
): Promise<void> {
  if (!deps.temporal) throw temporalUnavailable('KYC decisions cannot be applied');
  try {
    await signalKycOnboarding(
      deps.temporal.client,
      deps.taskQueue,
      { userId: user.id, merchantId: user.merchant_id },
      event,
      kycWorkflowSummary(user),
    );
  } catch (error) {
    throw new ApiError(
      'service_unavailable',
      'The workflow service (Temporal) did not take the KYC decision; retry',
      {
        cause: error,
      },
    );
  }
}

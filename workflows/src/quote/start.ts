/** Starting and signalling a quote's `quoteLifecycle` workflow from the API (client side). */
import type { QuoteRow } from '@checkout/db';
import type { Client } from '@temporalio/client';
import type { WorkflowSummary } from '../shared.ts';
import {
  depositReportedSignal,
  offrampActionSignal,
  type QuoteLifecycleInput,
  type QuoteLifecycleWorkflow,
  quoteExecutedSignal,
  quoteWorkflowId,
  quoteWorkflowType,
} from './shared.ts';

/** The quote's workflow input. */
export function quoteLifecycleInput(
  row: Pick<QuoteRow, 'id' | 'merchant_id' | 'user_id' | 'expires_at'>,
): QuoteLifecycleInput {
  return {
    quoteId: row.id,
    merchantId: row.merchant_id,
    userId: row.user_id,
    expiresAt: row.expires_at.toISOString(),
  };
}

/** Starts the quote's lifecycle (its expiry timer); a running one is reused. */
export async function startQuoteLifecycle(
  client: Client,
  taskQueue: string,
  input: QuoteLifecycleInput,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.start<QuoteLifecycleWorkflow>(quoteWorkflowType, {
    workflowId: quoteWorkflowId(input.quoteId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    ...summary,
  });
}

/** Tells the lifecycle the quote was executed, starting it when it is not running (e.g. Temporal was down). */
export async function signalQuoteExecuted(
  client: Client,
  taskQueue: string,
  input: QuoteLifecycleInput,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.signalWithStart<QuoteLifecycleWorkflow, []>(quoteWorkflowType, {
    workflowId: quoteWorkflowId(input.quoteId),
    taskQueue,
    args: [{ ...input, executed: true }],
    signal: quoteExecutedSignal,
    signalArgs: [],
    ...summary,
  });
}

/** Tells the lifecycle a bounced offramp got a resend or refund request. */
export async function signalOfframpAction(
  client: Client,
  taskQueue: string,
  input: QuoteLifecycleInput,
  offrampId: string,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.signalWithStart<QuoteLifecycleWorkflow, [{ offrampId: string }]>(quoteWorkflowType, {
    workflowId: quoteWorkflowId(input.quoteId),
    taskQueue,
    args: [{ ...input, executed: true, actions: [offrampId] }],
    signal: offrampActionSignal,
    signalArgs: [{ offrampId }],
    ...summary,
  });
}

/**
 * Tells the lifecycle a transfer into the deposit address was reported, starting a run when none is
 * going (a quote that ended): `input.executed` says which way that run goes. The run looks at the
 * address and returns what no payout uses.
 */
export async function signalDepositReported(
  client: Client,
  taskQueue: string,
  input: QuoteLifecycleInput,
  txHash: string,
  summary?: WorkflowSummary,
): Promise<void> {
  await client.workflow.signalWithStart<QuoteLifecycleWorkflow, [{ txHash: string }]>(quoteWorkflowType, {
    workflowId: quoteWorkflowId(input.quoteId),
    taskQueue,
    args: [input],
    signal: depositReportedSignal,
    signalArgs: [{ txHash }],
    ...summary,
  });
}

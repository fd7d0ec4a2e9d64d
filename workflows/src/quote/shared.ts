/**
 * Types, signals and names of the `quoteLifecycle` workflow, shared by the workflow, its activities and
 * the API that starts and signals it. Safe to import inside the workflow sandbox.
 */
import { defineSignal } from '@temporalio/workflow';

/** Workflow type name, as registered from bundle.workflow.ts. */
export const quoteWorkflowType = 'quoteLifecycle';

/** Input of `quoteLifecycle`. */
export interface QuoteLifecycleInput {
  quoteId: string;
  merchantId: string;
  userId: string;
  /** ISO time at which an unexecuted quote expires. */
  expiresAt: string;
  /** True when the quote is known to be executed (a previous run, or a start by the execute itself). */
  executed?: boolean;
  /** Bounced offramps with a request the previous run had not yet acted on. */
  actions?: string[];
  /** Transactions reported into the deposit address to the previous runs (looked at with the record). */
  reported?: string[];
}

/** Result of `quoteLifecycle`: the quote's final status and each offramp's. */
export interface QuoteLifecycleResult {
  quoteId: string;
  status: string;
  offramps: Array<{ id: string; status: string }>;
}

/** Signature of the workflow function, for typed starts by name. */
export type QuoteLifecycleWorkflow = (input: QuoteLifecycleInput) => Promise<QuoteLifecycleResult>;

/** The outcome of one offramp step: the status now stored, and the webhook delivery a change created. */
export interface OfframpStep {
  offrampId: string;
  status: string;
  /** The refund's status; `pending` means tokens are still owed to the sender. */
  refund: 'pending' | 'sent' | 'failed' | null;
  webhookDeliveryId: string | null;
}

/** Where an offramp's refund transfer stands. */
export interface OfframpRefundCheck extends OfframpStep {
  transfer: 'pending' | 'confirmed' | 'reverted' | 'none';
}

/** An offramp handed to the payout partner, and how long to wait before asking for its outcome. */
export interface OfframpSubmission extends OfframpStep {
  settleAfterMs: number;
}

/** What the quote's payouts start from. */
export interface QuotePayoutStart {
  quoteStatus: string;
  offramps: OfframpStep[];
}

/** The outcome of one quote refund step, and the `quote_update` webhook a change created. */
export interface QuoteRefundStep {
  refundId: string;
  status: 'pending' | 'sent' | 'failed';
  webhookDeliveryId: string | null;
}

/** What a look at the quote's deposit address found. */
export interface QuoteRefundScan {
  /** Every refund of the quote still to send, the ones just recorded included. */
  pending: string[];
  /** `quote_update` webhooks of the refunds just recorded. */
  webhookDeliveryIds: string[];
  /** Transfers too recent to count yet: look again a little later. */
  unconfirmed: boolean;
}

/** Activities of the quote family. */
export interface QuoteActivities {
  /** At the expiry: an open quote becomes expired and its offramps failed; an executed one is left as is. */
  expireQuote(input: { quoteId: string }): Promise<QuotePayoutStart>;
  beginQuotePayouts(input: { quoteId: string }): Promise<QuotePayoutStart>;
  submitOfframpPayout(input: { offrampId: string }): Promise<OfframpSubmission>;
  settleOfframpPayout(input: { offrampId: string }): Promise<OfframpStep>;
  /** Applies the user's request for a bounced offramp: resend (to the partner again) or refund. */
  resolveBouncedOfframp(input: { offrampId: string }): Promise<OfframpSubmission>;
  sendOfframpRefund(input: { offrampId: string }): Promise<OfframpStep>;
  checkOfframpRefund(input: { offrampId: string }): Promise<OfframpRefundCheck>;
  completeQuote(input: { quoteId: string }): Promise<{ quoteStatus: string }>;
  /**
   * Once the quote is expired or executed: looks at what reached its deposit address (the chain watcher's
   * record and the `reported` transactions) and records a refund for tokens no payout uses (everything sent
   * to an expired quote; the excess of the executing transfer and every other transfer of an executed one).
   */
  findQuoteRefunds(input: { quoteId: string; reported?: string[] }): Promise<QuoteRefundScan>;
  /** Signs (once) and broadcasts the refund's treasury transfer. */
  sendQuoteRefund(input: { refundId: string }): Promise<QuoteRefundStep>;
  /** Checks the refund's transfer: confirmed → sent, reverted → failed. */
  checkQuoteRefund(input: { refundId: string }): Promise<QuoteRefundStep>;
  /** Notes a step that failed for good on the offramp (its `status_message`, the status kept), with a webhook. */
  recordOfframpStepFailure(input: { offrampId: string; message: string }): Promise<OfframpStep>;
}

/** The quote was executed: its payouts start now. */
export const quoteExecutedSignal = defineSignal('quoteExecuted');

/** A bounced offramp of the quote got a resend or refund request. */
export const offrampActionSignal = defineSignal<[{ offrampId: string }]>('offrampAction');

/**
 * A transfer into the quote's deposit address was recorded by the chain's watcher, or reported (through
 * execute) after the quote could no longer use it: look at the address again, and at that transaction.
 */
export const depositReportedSignal = defineSignal<[{ txHash: string }]>('depositReported');

/** Error type thrown while the quote row is not visible yet (its transaction may not have committed). */
export const quoteNotFound = 'quote_not_found';

/** Offramp statuses no payout step leaves (a bounced one waits for the user's resend or refund request). */
export const terminalOfframpStatuses: readonly string[] = ['fiat_sent', 'failed'];

/** Message of the offramps of a quote that expired unexecuted. */
export const quoteExpiredMessage =
  'The quote expired before it was executed; no payout was made. Create a new quote to pay out.';

/** Workflow id of a quote: a business key, so a quote never has two. */
export function quoteWorkflowId(quoteId: string): string {
  return `quote-${quoteId}`;
}

/**
 * The state of one checkout run (workflow code), and the handlers that change it: the status query, the
 * shopper's hash (an Update), the merchant's attached transfer (an Update), the watcher's sightings and
 * the close of an attempt given up (signals).
 */
import { setHandler } from '@temporalio/workflow';
import { CheckoutStatus } from '../shared.ts';
import { ownMemo, showDetails, showStatus } from '../showStatus.ts';
import { checkoutStatus } from '../summaries.ts';
import { local } from './proxies.ts';
import {
  attachTransferSignal,
  type CheckoutSessionInput,
  type CheckoutState,
  type CheckoutWorkflowStatus,
  checkoutClosedSignal,
  checkoutRejection,
  checkoutRejections,
  checkoutStateQuery,
  submitTransactionUpdate,
  transferSeenSignal,
} from './shared.ts';

/** What a checkout run knows. */
export interface CheckoutRun {
  status: CheckoutWorkflowStatus;
  /** The transaction being checked (or the one that paid). */
  txHash: string | null;
  /** True when the merchant attached `txHash` (an unmatched transfer): it is not checked against the payer. */
  attached: boolean;
  expired: boolean;
  /** The attempt was closed: it takes nothing. */
  closed: boolean;
  resolvedPaymentId: string | null;
  /** Hashes checked and refused. */
  rejected: Set<string>;
  /** Transfers the chain's watcher recorded for this checkout so far. */
  sightings: number;
  /** Unmatched transfers the merchant attached, waiting to be checked (the first while no other is). */
  attachments: string[];
}

const hashPattern = /^0x[0-9a-fA-F]{64}$/;

/** A new run with its handlers installed. */
export function startRun(): CheckoutRun {
  const run: CheckoutRun = {
    status: 'awaiting_payment',
    txHash: null,
    attached: false,
    expired: false,
    closed: false,
    resolvedPaymentId: null,
    rejected: new Set(),
    sightings: 0,
    attachments: [],
  };
  const state = (): CheckoutState => ({
    status: run.status,
    txHash: run.txHash,
    expired: run.expired,
    resolvedPaymentId: run.resolvedPaymentId,
  });
  setHandler(checkoutStateQuery, state);
  // Refusals are failures typed with the rejection's name: the API matches the type.
  const check = (hash: string) => {
    if (typeof hash !== 'string' || !hashPattern.test(hash))
      throw checkoutRejection(checkoutRejections.malformed);
    const normalized = hash.toLowerCase();
    if (run.txHash === normalized) return;
    if (run.status === 'resolved' || run.status === 'failed')
      throw checkoutRejection(checkoutRejections.paid);
    if (run.closed) throw checkoutRejection(checkoutRejections.closed);
    if (run.expired) throw checkoutRejection(checkoutRejections.expired);
    if (run.txHash !== null) throw checkoutRejection(checkoutRejections.otherHash);
    if (run.rejected.has(normalized)) throw checkoutRejection(checkoutRejections.rejectedHash);
  };
  setHandler(
    submitTransactionUpdate,
    (hash) => {
      run.txHash = hash.toLowerCase();
      run.attached = false;
      return state();
    },
    { validator: check },
  );
  setHandler(attachTransferSignal, (hash) => {
    run.attachments.push(hash.toLowerCase());
  });
  setHandler(transferSeenSignal, () => {
    run.sightings++;
  });
  setHandler(checkoutClosedSignal, () => {
    run.closed = true;
  });
  return run;
}

/** Moves the run (and the session row) to `next`. */
export async function setStatus(
  input: CheckoutSessionInput,
  run: CheckoutRun,
  next: CheckoutWorkflowStatus,
  extra: { txHash?: string | null; error?: string | null } = {},
): Promise<void> {
  run.status = next;
  showCheckout(input, run);
  await local.setSessionStatus({ sessionId: input.sessionId, status: next, ...extra });
}

/**
 * Shows the run's status in the Temporal UI: `CheckoutStatus`, the `Summary` line and the current details;
 * with `recorded: false` the current details only (a step no search attribute records).
 */
export function showCheckout(input: CheckoutSessionInput, run: CheckoutRun, { recorded = true } = {}): void {
  const shown = checkoutStatus(ownMemo(), {
    status: run.status,
    txHash: run.txHash,
    resolvedPaymentId: run.resolvedPaymentId,
    expiresAt: input.expiresAt,
    scanUntil: input.scanUntil,
    refused: run.rejected.size,
  });
  if (recorded) showStatus(shown, [{ key: CheckoutStatus, value: run.status }]);
  else showDetails(shown);
}

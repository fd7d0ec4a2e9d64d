/**
 * The state of one checkout run (workflow code), and the handlers that change it: the status query, the
 * shopper's hash (an Update), the merchant's attached transfer (an Update), the watcher's sightings and
 * the close of an attempt given up (signals), and the sandbox's "expire now" (an Update).
 */
import { setHandler } from '@temporalio/workflow';
import { CheckoutStatus } from '../shared.ts';
import { ownMemo, showDetails, showStatus } from '../showStatus.workflow.ts';
import { checkoutStatus } from '../summaries.ts';
import { local } from './proxies.workflow.ts';
import {
  attachTransferSignal,
  type CheckoutSessionInput,
  type CheckoutState,
  type CheckoutWorkflowStatus,
  checkoutClosedSignal,
  checkoutRejection,
  checkoutRejections,
  checkoutStateQuery,
  expireNowUpdate,
  submitTransactionUpdate,
  transferSeenSignal,
} from './shared.ts';

/** What a checkout run knows. */
export interface CheckoutRun {
  status: CheckoutWorkflowStatus;
  /** The transaction being checked (or the one that paid). */
  txHash: string | null;
  /** True when the merchant attached `txHash` (an unmatched transfer): it is not checked for the session's keys. */
  attached: boolean;
  /** Earlier transfers of the payment found with `txHash` (claimed for the session): their amounts add to it. */
  parts: string[];
  /** True when `txHash` (with its parts) is short of the price and the wait for the rest is over. */
  acceptShort: boolean;
  expired: boolean;
  /** When the sandbox expired the checkout before its time (epoch ms); null when it did not. */
  expiredAt: number | null;
  /** The attempt was closed: it takes nothing. */
  closed: boolean;
  resolvedPaymentId: string | null;
  /** The payment that resolved the run came after its expiry. */
  late: boolean;
  /** Hashes checked and refused. */
  rejected: Set<string>;
  /** Hashes that pay the session short of its price: the look adds them up with what else comes for it. */
  parked: Set<string>;
  /** Transfers the chain's watcher recorded for this checkout so far. */
  sightings: number;
  /** Unmatched transfers the merchant attached, waiting to be checked (the first while no other is). */
  attachments: string[];
}

const hashPattern = /^0x[0-9a-fA-F]{64}$/;

/** A new run with its handlers installed. */
export function startRun(input: CheckoutSessionInput): CheckoutRun {
  const run: CheckoutRun = {
    status: 'awaiting_payment',
    txHash: null,
    attached: false,
    parts: [],
    acceptShort: false,
    expired: false,
    expiredAt: null,
    closed: false,
    resolvedPaymentId: null,
    late: false,
    rejected: new Set(),
    parked: new Set(),
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
    if (run.txHash === normalized || run.parked.has(normalized)) return;
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
      const normalized = hash.toLowerCase();
      // A part already counted stays with the look, which adds it up with the rest.
      if (!run.parked.has(normalized)) {
        run.txHash = normalized;
        run.attached = false;
        run.parts = [];
        run.acceptShort = false;
      }
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
  // The sandbox's "expire now": what the expiry timer does, at once, while the checkout awaits its payment.
  setHandler(
    expireNowUpdate,
    async (at) => {
      if (!run.expired) {
        run.expired = true;
        run.expiredAt = at;
        await setStatus(input, run, 'expired');
      }
      return state();
    },
    {
      validator: (at) => {
        if (typeof at !== 'number' || !Number.isFinite(at))
          throw checkoutRejection(checkoutRejections.malformed);
        if (run.status === 'resolved' || run.status === 'failed')
          throw checkoutRejection(checkoutRejections.paid);
        if (run.closed) throw checkoutRejection(checkoutRejections.closed);
        if (run.txHash !== null) throw checkoutRejection(checkoutRejections.otherHash);
      },
    },
  );
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
    late: run.late,
  });
  if (recorded) showStatus(shown, [{ key: CheckoutStatus, value: run.status }]);
  else showDetails(shown);
}

/**
 * `checkoutSession`: one per expected payment. Waits for the shopper's transaction hash (an Update), a
 * transfer the merchant attaches, or the payment found among the transfers the chain's watcher records;
 * confirms it, records exactly one Resolved Payment and hands it to webhook delivery and e-mail. Expiry
 * stops new submissions but never drops a payment; an attempt closed (given up) ends taking nothing.
 */
import { condition, isCancellation, log, upsertMemo } from '@temporalio/workflow';
import { failedStepMemo, finalFailureOf } from '../finalFailure.ts';
import type { CheckoutActivities } from './activities.ts';
import { announceResolution } from './announce.workflow.ts';
import { createLook, type Look } from './look.workflow.ts';
import { glance, local, watching } from './proxies.workflow.ts';
import { type CheckoutRun, setStatus, showCheckout, startRun } from './run.workflow.ts';
import type { CheckoutResult, CheckoutSessionInput, RecordedResolution, TransactionFacts } from './shared.ts';

const maxSubmissions = 10;

type Refusal = Extract<TransactionFacts, { status: 'not_found' | 'no_transfer' | 'refused' }>;

/** What the session says of a transaction it refused. */
function refusalMessage(facts: Refusal): string {
  if (facts.status === 'not_found') return 'The transaction was not found on the chain';
  if (facts.status === 'no_transfer') return 'The transaction does not pay this checkout';
  return facts.reason === 'before_opening'
    ? 'The transaction was mined before this checkout opened'
    : "The transaction does not carry this checkout's reference";
}

/** The checkout of one expected payment. */
export async function checkoutSession(input: CheckoutSessionInput): Promise<CheckoutResult> {
  const run = startRun(input);
  showCheckout(input, run, { recorded: false });
  const look = createLook(input, run);
  const ended = (late = false): CheckoutResult => ({
    status: run.status,
    resolvedPaymentId: run.resolvedPaymentId,
    webhookDeliveryId: null,
    late,
  });
  // Runs started by earlier versions may start their look later (`scanStartAt`); new ones start it at once
  // (a wallet session's first read of what was recorded before may wait: `firstReadAt`, look.workflow.ts).
  let lookAt: number | null = input.scanStartAt ?? null;
  if (lookAt === null || Date.now() >= lookAt) {
    lookAt = null;
    look.start();
  }

  for (let round = 0; round < maxSubmissions; round++) {
    lookAt = await awaitTransaction(input, run, look, lookAt);
    const attached = run.txHash === null && !run.closed ? run.attachments.shift() : undefined;
    if (attached !== undefined) {
      run.txHash = attached;
      run.attached = true;
    }
    if (run.closed && run.txHash === null) {
      await look.stop();
      run.status = 'closed';
      showCheckout(input, run);
      return ended();
    }
    if (run.txHash === null && look.found) {
      run.txHash = look.found.txHash;
      run.parts = look.found.parts;
      run.acceptShort = look.found.short;
    }
    if (run.txHash === null) {
      // The look's window closed without a payment.
      if (!run.expired) {
        run.expired = true;
        await setStatus(input, run, 'expired');
      }
      return ended();
    }
    // One transaction at a time: the look stops while it is checked (and resumes if it is refused).
    lookAt = null;
    await look.stop();
    const settled = await settle(input, run, run.txHash);
    if (settled === 'parked') {
      // Not a refusal: the look adds it up with what else comes, and this round is given back.
      round--;
      if (Date.now() < input.scanUntil && !run.closed) look.start();
      else look.finish();
      continue;
    }
    if (!settled) {
      if (Date.now() < input.scanUntil && !run.closed) look.start();
      else look.finish();
      continue;
    }
    await announceResolution(input, settled.recorded);
    await refuseAttachments(input, run);
    return { ...ended(settled.late), webhookDeliveryId: settled.recorded.webhookDeliveryId };
  }
  return ended();
}

/** Attachments the checkout can no longer take (it is paid) go back to the merchant, open again. */
async function refuseAttachments(input: CheckoutSessionInput, run: CheckoutRun): Promise<void> {
  for (const hash of run.attachments.splice(0)) {
    await local.refuseTransaction({
      sessionId: input.sessionId,
      chainId: input.chainId,
      txHash: hash,
      attached: true,
      status: null,
      error: null,
    });
  }
}

/**
 * Waits until a transaction is known, the look ends, or the attempt is closed, meanwhile expiring the
 * session at its time and starting the look at `lookAt`; returns when the look should start (null: started).
 */
async function awaitTransaction(
  input: CheckoutSessionInput,
  run: CheckoutRun,
  look: Look,
  lookAt: number | null,
): Promise<number | null> {
  let startAt = lookAt;
  const woken = () =>
    run.txHash !== null || look.found !== undefined || run.closed || run.attachments.length > 0;
  while (!woken()) {
    const deadlines: number[] = [];
    if (!run.expired && input.expiresAt !== null) deadlines.push(input.expiresAt);
    if (startAt !== null) deadlines.push(startAt);
    if (deadlines.length === 0) {
      // No timer left to run (`condition` without a timeout resolves to nothing: not "timed out").
      await condition(woken);
      continue;
    }
    if (await condition(woken, Math.max(Math.min(...deadlines) - Date.now(), 1))) continue;
    if (startAt !== null && Date.now() >= startAt) {
      startAt = null;
      look.start();
    }
    if (!run.expired && input.expiresAt !== null && Date.now() >= input.expiresAt) {
      run.expired = true;
      await setStatus(input, run, 'expired');
    }
  }
  return startAt;
}

/**
 * Checks the run's transaction and records its payment. Null when it was refused (not found, paying
 * someone else, not carrying the session's reference, or a payment the database refuses): the session
 * awaits payment again. `parked` when it pays the session short of its price and came alone (its hash): the
 * look adds it up with what else comes for the session, and resolves it short only once the wait is over.
 */
async function settle(
  input: CheckoutSessionInput,
  run: CheckoutRun,
  hash: string,
): Promise<{ recorded: RecordedResolution; late: boolean } | 'parked' | null> {
  run.status = 'confirming';
  showCheckout(input, run, { recorded: false });
  const target = { sessionId: input.sessionId, chainId: input.chainId, txHash: hash, attached: run.attached };
  const facts = await checkTransaction(input, run, target);
  if (facts.status === 'not_found' || facts.status === 'no_transfer' || facts.status === 'refused') {
    const status = forget(run, hash);
    showCheckout(input, run);
    await local.refuseTransaction({ ...target, status, error: refusalMessage(facts) });
    return null;
  }
  const alone = !run.attached && !run.acceptShort && run.parts.length === 0;
  if (alone && facts.status === 'confirmed' && facts.amountDifference.startsWith('-')) {
    run.parked.add(hash);
    run.txHash = null;
    run.status = run.expired ? 'expired' : 'awaiting_payment';
    await setStatus(input, run, run.status, { txHash: null, error: null });
    return 'parked';
  }
  // Late after the checkout's time, or after the moment the sandbox expired it.
  const expiry = run.expiredAt ?? input.expiresAt;
  const late = expiry !== null && facts.blockTimestamp > expiry;
  try {
    const recorded = await local.recordResolution({
      sessionId: input.sessionId,
      txHash: hash,
      parts: run.parts,
      facts,
      late,
      attached: run.attached,
    });
    run.resolvedPaymentId = recorded.resolvedPaymentId;
    run.late = late;
    run.status = facts.status === 'reverted' ? 'failed' : 'resolved';
    showCheckout(input, run);
    return { recorded, late };
  } catch (error) {
    const final = finalFailureOf(error);
    if (!final) throw error;
    // The payment cannot be recorded (a value or rule the database refuses): noted on the session, in the
    // memo and the log; the checkout goes on and takes another transaction.
    const message = `The payment in ${hash} could not be recorded: ${final.message}`;
    log.error('a checkout step failed for good; the checkout goes on', {
      sessionId: input.sessionId,
      step: 'record payment',
      type: final.type,
    });
    upsertMemo({ [failedStepMemo]: { step: 'record payment', type: final.type, message } });
    forget(run, hash);
    await setStatus(input, run, run.status, { txHash: null, error: message.slice(0, 500) });
    return null;
  }
}

/** The run refuses `hash` and awaits payment again (or stays expired); the status it is back in. */
function forget(run: CheckoutRun, hash: string): 'awaiting_payment' | 'expired' {
  run.rejected.add(hash);
  run.txHash = null;
  run.attached = false;
  run.parts = [];
  run.acceptShort = false;
  run.status = run.expired ? 'expired' : 'awaiting_payment';
  return run.status;
}

/**
 * The transaction's facts once final. A hash usually arrives once its block is in: one look settles it
 * without the polling activity (the workflow goes from awaiting payment straight to its outcome).
 */
async function checkTransaction(
  input: CheckoutSessionInput,
  run: CheckoutRun,
  target: Parameters<CheckoutActivities['checkTransaction']>[0],
): Promise<TransactionFacts> {
  try {
    const facts = await glance.checkTransaction(target);
    if (facts) return facts;
  } catch (error) {
    if (isCancellation(error)) throw error;
    // The chain did not answer: the session shows the hash confirming while the watch retries.
    await local.setSessionStatus({
      sessionId: input.sessionId,
      status: run.status,
      txHash: target.txHash,
      error: null,
    });
  }
  showCheckout(input, run);
  return watching.awaitTransaction(target);
}

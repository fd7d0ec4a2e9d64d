/**
 * Hands committed ramp writes to their workflows, and catches up with every one a Temporal outage missed.
 *
 * Each write is durable before the workflow call, and the call is noted in the database once Temporal
 * took it (`quotes.workflow_state`, `onramps.workflow_started`, `onramp_deposits.signalled`; a bounced
 * offramp's pending `bounce_action` is its own note). The reconciler, run at start and every
 * `RAMP_RECONCILE_INTERVAL_MS`, repeats the calls still un-noted. Workflow ids are business keys and
 * every call is idempotent (start reuses a running workflow, signals are deduplicated by the workflow's
 * activities), so a call made twice does no harm.
 */
import {
  countPendingHandovers,
  countUnattemptedDeliveries,
  type Database,
  findQuoteById,
  findSession,
  listOnrampsWithoutWorkflow,
  listPendingBounceActions,
  listPendingHandovers,
  listQuotesOutOfSync,
  listUnattemptedDeliveries,
  listUnsignalledOnrampDeposits,
  markOnrampDepositSignalled,
  markOnrampWorkflowStarted,
  markQuoteWorkflow,
  markTransactionHandedOver,
  type OnrampRow,
  type QuoteRow,
  releaseTransaction,
  updateSession,
} from '@checkout/db';
import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { callWithin, handHashToCheckout } from './checkout/start.ts';
import type { OnrampDeposit } from './onramp/shared.ts';
import { onrampLifecycleInput, signalOnrampDeposit, startOnrampLifecycle } from './onramp/start.ts';
import {
  quoteLifecycleInput,
  signalDepositReported,
  signalOfframpAction,
  signalQuoteExecuted,
  startQuoteLifecycle,
} from './quote/start.ts';
import { onrampWorkflowSummary, quoteWorkflowSummary } from './summaries.ts';
import { startWebhookDelivery } from './webhookDelivery/start.ts';

/** How long one workflow call may take before the write is left to the reconciler. */
export const workflowCallTimeoutMs = 5_000;

/** Rows handled per kind and reconciler pass. */
const batchSize = 100;

/** What the hand-overs and the reconciler need: a Temporal client (absent when the service runs without one) and the task queue. */
export interface HandOverDeps {
  temporal?: { client: Client } | undefined;
  taskQueue: string;
}

/** A structured logger (fields first, then the message, as pino takes them). */
export interface HandOverLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Runs one Temporal call within the deadline; false (logged) when Temporal is absent or did not take it. */
async function call(
  deps: HandOverDeps,
  log: HandOverLog,
  what: Record<string, unknown>,
  fn: (temporal: NonNullable<HandOverDeps['temporal']>) => Promise<void>,
): Promise<boolean> {
  const temporal = deps.temporal;
  if (!temporal) return false;
  try {
    await callWithin(temporal.client, workflowCallTimeoutMs, () => fn(temporal));
    return true;
  } catch (error) {
    log.warn({ err: error, ...what }, 'the workflow call failed; the ramp reconciler will repeat it');
    return false;
  }
}

/** Starts an open quote's lifecycle, or tells it the quote was executed; notes it when Temporal took it. */
export async function handQuoteToWorkflow(
  deps: HandOverDeps,
  db: Kysely<Database>,
  row: QuoteRow,
  log: HandOverLog,
): Promise<boolean> {
  if (row.status !== 'open' && row.status !== 'executed') return true;
  const state = row.status;
  const taskQueue = deps.taskQueue;
  const done = await call(deps, log, { quoteId: row.id, state }, (t) =>
    state === 'open'
      ? startQuoteLifecycle(t.client, taskQueue, quoteLifecycleInput(row), quoteWorkflowSummary(row))
      : signalQuoteExecuted(t.client, taskQueue, quoteLifecycleInput(row), quoteWorkflowSummary(row)),
  );
  if (done) await markQuoteWorkflow(db, row.id, state);
  return done;
}

/** Tells the quote's lifecycle a bounced offramp got a request (the pending request is its own note). */
export async function handOfframpActionToWorkflow(
  deps: HandOverDeps,
  quote: QuoteRow,
  offrampId: string,
  log: HandOverLog,
): Promise<boolean> {
  return call(deps, log, { quoteId: quote.id, offrampId }, (t) =>
    signalOfframpAction(
      t.client,
      deps.taskQueue,
      quoteLifecycleInput(quote),
      offrampId,
      quoteWorkflowSummary(quote),
    ),
  );
}

/**
 * Tells the quote's lifecycle a transfer into its deposit address was reported after the quote could no
 * longer use it (starting a run for a quote whose lifecycle ended), so it looks at the address again and
 * returns the tokens. Nothing is stored: a report Temporal did not take is simply made again.
 */
export async function handDepositReportToWorkflow(
  deps: HandOverDeps,
  quote: QuoteRow,
  txHash: string,
  log: HandOverLog,
): Promise<boolean> {
  const input = { ...quoteLifecycleInput(quote), executed: quote.crypto_transfer !== null };
  return call(deps, log, { quoteId: quote.id, txHash }, (t) =>
    signalDepositReported(t.client, deps.taskQueue, input, txHash, quoteWorkflowSummary(quote)),
  );
}

/** Starts the onramp's lifecycle; notes it when Temporal took it. */
export async function handOnrampToWorkflow(
  deps: HandOverDeps,
  db: Kysely<Database>,
  row: OnrampRow,
  log: HandOverLog,
): Promise<boolean> {
  const done = await call(deps, log, { onrampId: row.id }, (t) =>
    startOnrampLifecycle(t.client, deps.taskQueue, onrampLifecycleInput(row), onrampWorkflowSummary(row)),
  );
  if (done) await markOnrampWorkflowStarted(db, row.id);
  return done;
}

/** Delivers a stored deposit notice to the onramp's lifecycle (starting it if needed); notes it. */
export async function handDepositToWorkflow(
  deps: HandOverDeps,
  db: Kysely<Database>,
  onramp: OnrampRow,
  deposit: OnrampDeposit,
  log: HandOverLog,
): Promise<boolean> {
  const done = await call(deps, log, { onrampId: onramp.id, depositId: deposit.depositId }, (t) =>
    signalOnrampDeposit(
      t.client,
      deps.taskQueue,
      onrampLifecycleInput(onramp),
      deposit,
      onrampWorkflowSummary(onramp),
    ),
  );
  if (done) {
    await markOnrampDepositSignalled(db, deposit.depositId);
    await markOnrampWorkflowStarted(db, onramp.id);
  }
  return done;
}

/** What one reconciler pass handed over. */
export interface RampReconcileResult {
  quotes: number;
  onramps: number;
  deposits: number;
  offrampActions: number;
  /** Shoppers' hashes recorded while Temporal or its workers were away, now taken (or refused) by their checkout. */
  hashes: number;
  /** Webhook deliveries nobody attempted, now given a workflow. */
  webhooks: number;
  failed: number;
}

/** How long a webhook delivery may wait for its first attempt before the sweeper starts its workflow. */
export const webhookSweepGraceMs = 60_000;

/** A hash recorded for a session goes to its workflow; a refusal releases the claim and says why on the session. */
export async function handPendingHashToCheckout(
  deps: HandOverDeps,
  db: Kysely<Database>,
  pending: { chainId: number; txHash: string; sessionId: string; expectedPaymentId: string },
  log: HandOverLog,
): Promise<boolean> {
  const temporal = deps.temporal;
  if (!temporal) return false;
  const handover = await handHashToCheckout(temporal.client, pending.expectedPaymentId, pending.txHash, {
    waitMs: workflowCallTimeoutMs,
  });
  if (handover.outcome === 'taken') {
    await markTransactionHandedOver(db, pending);
    return true;
  }
  if (handover.outcome === 'refused') {
    await releaseTransaction(db, pending);
    const session = await findSession(db, pending.sessionId);
    if (session?.status === 'confirming' && session.tx_hash === pending.txHash) {
      await updateSession(db, pending.sessionId, {
        status:
          session.expires_at && session.expires_at.getTime() <= Date.now() ? 'expired' : 'awaiting_payment',
        tx_hash: null,
        error: `The transaction was not taken: ${handover.error.message}`,
      });
    }
    return true;
  }
  log.warn(
    { ...pending, outcome: handover.outcome },
    'a recorded hash could not be handed to its checkout yet',
  );
  return false;
}

/**
 * Starts the workflow of a queued webhook delivery; true when Temporal took the start. One it did not take
 * stays pending, and the reconciler's sweep starts it later.
 */
export async function handDeliveryToWorkflow(
  deps: HandOverDeps,
  deliveryId: string,
  log: HandOverLog,
): Promise<boolean> {
  return call(deps, log, { deliveryId }, (t) => startWebhookDelivery(t.client, deliveryId, deps.taskQueue));
}

/** What waits for Temporal: the reconciler's backlog, shown by /health and the metrics. */
export interface ReconcileBacklog {
  /** Hashes recorded for a session that its workflow has not taken. */
  pendingHashes: number;
  /** Webhook deliveries older than the sweep grace that nobody attempted. */
  unattemptedWebhooks: number;
}

/** Counts the reconciler's backlog. */
export async function reconcileBacklog(db: Kysely<Database>, now = Date.now()): Promise<ReconcileBacklog> {
  const [pendingHashes, unattemptedWebhooks] = await Promise.all([
    countPendingHandovers(db, new Date(now - workflowCallTimeoutMs * 2)),
    countUnattemptedDeliveries(db, new Date(now - webhookSweepGraceMs)),
  ]);
  return { pendingHashes, unattemptedWebhooks };
}

/**
 * One pass: repeats the workflow calls of writes committed before `before` that Temporal has not taken
 * (at most {@link batchSize} of each kind, oldest first). The pass ends at the first call that fails:
 * Temporal is most likely still down, and the next pass tries again.
 */
export async function reconcileRamps(
  deps: HandOverDeps,
  db: Kysely<Database>,
  log: HandOverLog,
  before: Date,
): Promise<RampReconcileResult> {
  const result: RampReconcileResult = {
    quotes: 0,
    onramps: 0,
    deposits: 0,
    offrampActions: 0,
    hashes: 0,
    webhooks: 0,
    failed: 0,
  };
  const handed = (done: boolean, key: Exclude<keyof RampReconcileResult, 'failed'>): boolean => {
    if (done) result[key] += 1;
    else result.failed += 1;
    return done;
  };
  for (const quote of await listQuotesOutOfSync(db, before, batchSize)) {
    if (!handed(await handQuoteToWorkflow(deps, db, quote, log), 'quotes')) return result;
  }
  for (const onramp of await listOnrampsWithoutWorkflow(db, before, batchSize)) {
    if (!handed(await handOnrampToWorkflow(deps, db, onramp, log), 'onramps')) return result;
  }
  for (const { deposit, onramp } of await listUnsignalledOnrampDeposits(db, before, batchSize)) {
    const notice = { depositId: deposit.id, amount: deposit.amount };
    if (!handed(await handDepositToWorkflow(deps, db, onramp, notice, log), 'deposits')) return result;
  }
  for (const offramp of await listPendingBounceActions(db, before, batchSize)) {
    const quote = await findQuoteById(db, offramp.quote_id);
    if (!quote) continue;
    if (!handed(await handOfframpActionToWorkflow(deps, quote, offramp.id, log), 'offrampActions')) {
      return result;
    }
  }
  for (const pending of await listPendingHandovers(db, before, batchSize)) {
    if (!handed(await handPendingHashToCheckout(deps, db, pending, log), 'hashes')) return result;
  }
  const sweepBefore = new Date(Math.min(before.getTime(), Date.now() - webhookSweepGraceMs));
  for (const deliveryId of await listUnattemptedDeliveries(db, sweepBefore, batchSize)) {
    if (!handed(await handDeliveryToWorkflow(deps, deliveryId, log), 'webhooks')) return result;
  }
  return result;
}

/** A running reconciler. */
export interface RampReconciler {
  /** Runs a pass now (after the one in progress); resolves with its result. */
  runOnce(): Promise<RampReconcileResult>;
  stop(): Promise<void>;
}

/**
 * Runs {@link reconcileRamps} at once and then every `intervalMs`, one pass at a time. Writes younger
 * than the interval are left alone: their request may still be making the call itself.
 */
export function startRampReconciler(
  deps: HandOverDeps,
  db: Kysely<Database>,
  log: HandOverLog,
  intervalMs: number,
): RampReconciler {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runOnce = (): Promise<RampReconcileResult> => {
    const pass = running.then(() => reconcileRamps(deps, db, log, new Date(Date.now() - intervalMs)));
    running = pass.catch(() => undefined);
    return pass;
  };
  let ticking = false;
  const tick = () => {
    // A pass still under way (Temporal slow or down) is not queued behind: the next tick tries again.
    if (stopped || ticking) return;
    ticking = true;
    runOnce()
      .finally(() => {
        ticking = false;
      })
      .then(
        (r) => {
          if (r.quotes + r.onramps + r.deposits + r.offrampActions + r.hashes + r.webhooks + r.failed > 0) {
            log.info(r, 'the reconciler handed writes to their workflows');
          }
        },
        (error: unknown) => log.warn({ err: error }, 'ramp reconciler pass failed'),
      );
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

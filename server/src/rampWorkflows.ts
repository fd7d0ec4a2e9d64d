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
  type Database,
  findQuoteById,
  listOnrampsWithoutWorkflow,
  listPendingBounceActions,
  listQuotesOutOfSync,
  listUnsignalledOnrampDeposits,
  markOnrampDepositSignalled,
  markOnrampWorkflowStarted,
  markQuoteWorkflow,
  type OnrampRow,
  type QuoteRow,
} from '@checkout/db';
import {
  type OnrampDeposit,
  type OnrampLifecycleInput,
  type QuoteLifecycleInput,
  signalDepositReported,
  signalOfframpAction,
  signalOnrampDeposit,
  signalQuoteExecuted,
  startOnrampLifecycle,
  startQuoteLifecycle,
} from '@checkout/workflows';
import type { Kysely } from 'kysely';
import type { AppDeps } from './context.ts';
import type { Logger } from './logger.ts';
import { onrampWorkflowSummary, quoteWorkflowSummary } from './workflowSummaries.ts';

/** How long one workflow call may take before the write is left to the reconciler. */
export const workflowCallTimeoutMs = 5_000;

/** Rows handled per kind and reconciler pass. */
const batchSize = 100;

type Deps = Pick<AppDeps, 'config' | 'temporal'>;

/** The quote's workflow input. */
export function quoteLifecycleInput(row: QuoteRow): QuoteLifecycleInput {
  return {
    quoteId: row.id,
    merchantId: row.merchant_id,
    userId: row.user_id,
    expiresAt: row.expires_at.toISOString(),
  };
}

/** The onramp's workflow input. */
export function onrampLifecycleInput(row: OnrampRow): OnrampLifecycleInput {
  return {
    onrampId: row.id,
    merchantId: row.merchant_id,
    userId: row.user_id,
    expiresAt: row.expires_at.toISOString(),
  };
}

/** Runs one Temporal call within the deadline; false (logged) when Temporal is absent or did not take it. */
async function call(
  deps: Deps,
  log: Logger,
  what: Record<string, unknown>,
  fn: (temporal: NonNullable<Deps['temporal']>) => Promise<void>,
): Promise<boolean> {
  const temporal = deps.temporal;
  if (!temporal) return false;
  try {
    await temporal.client.connection.withDeadline(Date.now() + workflowCallTimeoutMs, () => fn(temporal));
    return true;
  } catch (error) {
    log.warn({ err: error, ...what }, 'the workflow call failed; the ramp reconciler will repeat it');
    return false;
  }
}

/** Starts an open quote's lifecycle, or tells it the quote was executed; notes it when Temporal took it. */
export async function handQuoteToWorkflow(
  deps: Deps,
  db: Kysely<Database>,
  row: QuoteRow,
  log: Logger,
): Promise<boolean> {
  if (row.status !== 'open' && row.status !== 'executed') return true;
  const state = row.status;
  const taskQueue = deps.config.temporal.taskQueue;
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
  deps: Deps,
  quote: QuoteRow,
  offrampId: string,
  log: Logger,
): Promise<boolean> {
  return call(deps, log, { quoteId: quote.id, offrampId }, (t) =>
    signalOfframpAction(
      t.client,
      deps.config.temporal.taskQueue,
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
  deps: Deps,
  quote: QuoteRow,
  txHash: string,
  log: Logger,
): Promise<boolean> {
  const input = { ...quoteLifecycleInput(quote), executed: quote.crypto_transfer !== null };
  return call(deps, log, { quoteId: quote.id, txHash }, (t) =>
    signalDepositReported(
      t.client,
      deps.config.temporal.taskQueue,
      input,
      txHash,
      quoteWorkflowSummary(quote),
    ),
  );
}

/** Starts the onramp's lifecycle; notes it when Temporal took it. */
export async function handOnrampToWorkflow(
  deps: Deps,
  db: Kysely<Database>,
  row: OnrampRow,
  log: Logger,
): Promise<boolean> {
  const done = await call(deps, log, { onrampId: row.id }, (t) =>
    startOnrampLifecycle(
      t.client,
      deps.config.temporal.taskQueue,
      onrampLifecycleInput(row),
      onrampWorkflowSummary(row),
    ),
  );
  if (done) await markOnrampWorkflowStarted(db, row.id);
  return done;
}

/** Delivers a stored deposit notice to the onramp's lifecycle (starting it if needed); notes it. */
export async function handDepositToWorkflow(
  deps: Deps,
  db: Kysely<Database>,
  onramp: OnrampRow,
  deposit: OnrampDeposit,
  log: Logger,
): Promise<boolean> {
  const done = await call(deps, log, { onrampId: onramp.id, depositId: deposit.depositId }, (t) =>
    signalOnrampDeposit(
      t.client,
      deps.config.temporal.taskQueue,
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
  failed: number;
}

/**
 * One pass: repeats the workflow calls of writes committed before `before` that Temporal has not taken
 * (at most {@link batchSize} of each kind, oldest first). The pass ends at the first call that fails:
 * Temporal is most likely still down, and the next pass tries again.
 */
export async function reconcileRamps(
  deps: Deps,
  db: Kysely<Database>,
  log: Logger,
  before: Date,
): Promise<RampReconcileResult> {
  const result: RampReconcileResult = { quotes: 0, onramps: 0, deposits: 0, offrampActions: 0, failed: 0 };
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
  deps: Deps,
  db: Kysely<Database>,
  log: Logger,
  intervalMs: number,
): RampReconciler {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runOnce = (): Promise<RampReconcileResult> => {
    const pass = running.then(() => reconcileRamps(deps, db, log, new Date(Date.now() - intervalMs)));
    running = pass.catch(() => undefined);
    return pass;
  };
  const tick = () => {
    if (stopped) return;
    runOnce().then(
      (r) => {
        if (r.quotes + r.onramps + r.deposits + r.offrampActions + r.failed > 0) {
          log.info(r, 'ramp reconciler handed writes to their workflows');
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

/**
 * The hand-over's sweep in a service process: queued workflow calls Temporal has not taken (the dispatcher),
 * then shoppers' hashes a checkout has not taken (their claimed rows are their own outbox), every
 * `intervalMs`; and the one backlog count `/health` and `/metrics` show.
 */
import { countPendingHandovers } from '@checkout/db';
import { sweepPendingHashes } from './checkout/submit.ts';
import { workflowCallTimeoutMs } from './handOver/callWithin.ts';
import {
  createWorkflowCallDispatcher,
  type DispatcherDeps,
  type DispatcherLog,
  type WorkflowCallDispatcher,
} from './handOver/dispatcher.ts';

/** Rows handed over per kind and sweep. */
const batchSize = 100;

/** What one sweep handed over. */
export interface HandOverSweep {
  calls: number;
  hashes: number;
  /** Whether it stopped at something Temporal did not take. */
  failed: boolean;
}

/** The hand-over of one process: its dispatcher, a sweep, the backlog, and the loop. */
export interface HandOver {
  dispatcher: WorkflowCallDispatcher;
  /** Hands over what was queued before `before`. */
  sweep(before: Date): Promise<HandOverSweep>;
  /** Calls and hashes waiting for Temporal longer than a call may take. */
  backlog(now?: number): Promise<number>;
  /** Sweeps at once and every `intervalMs`, one sweep at a time; `stop` ends it. */
  start(intervalMs: number): { runOnce(): Promise<HandOverSweep>; stop(): Promise<void> };
}

/** Builds the hand-over over its dependencies. */
export function createHandOver(deps: DispatcherDeps): HandOver {
  const dispatcher = createWorkflowCallDispatcher(deps);
  const sweep = async (before: Date): Promise<HandOverSweep> => {
    const calls = await dispatcher.sweep(before);
    if (calls.failed) return { calls: calls.taken, hashes: 0, failed: true };
    const hashes = await sweepPendingHashes(deps, before, batchSize);
    return { calls: calls.taken, hashes: hashes.taken, failed: hashes.failed };
  };
  return {
    dispatcher,
    sweep,
    async backlog(now = Date.now()) {
      const [calls, hashes] = await Promise.all([
        dispatcher.backlog(now),
        countPendingHandovers(deps.db, new Date(now - workflowCallTimeoutMs * 2)),
      ]);
      return calls + hashes;
    },
    start: (intervalMs) => startLoop(sweep, deps.log, intervalMs),
  };
}

/** Calls younger than the interval are left alone: their request may still be making them itself. */
function startLoop(sweep: HandOver['sweep'], log: DispatcherLog, intervalMs: number) {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runOnce = (): Promise<HandOverSweep> => {
    const pass = running.then(() => sweep(new Date(Date.now() - intervalMs)));
    running = pass.catch(() => undefined);
    return pass;
  };
  let ticking = false;
  const tick = () => {
    // A sweep still under way (Temporal slow or down) is not queued behind: the next tick tries again.
    if (stopped || ticking) return;
    ticking = true;
    runOnce()
      .finally(() => {
        ticking = false;
      })
      .then(
        (r) => {
          if (r.calls + r.hashes > 0 || r.failed) log.info(r, 'the hand-over sweep made waiting calls');
        },
        (error: unknown) => log.warn({ err: error }, 'the hand-over sweep failed'),
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

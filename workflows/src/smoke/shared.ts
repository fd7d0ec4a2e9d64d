/** Types and message definitions of the smoke workflows, shared by workflow code and callers. */
import type { Duration } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';

/** Input of `ping` and `sleepingPing`; `waitForSignal` holds `ping` until `pingContinue` arrives. */
export interface PingInput {
  message: string;
  waitForSignal?: boolean;
}

/** Input of `sleepingPing`: how long to sleep before echoing, e.g. '2 days'. */
export interface SleepingPingInput extends PingInput {
  duration: Duration;
}

/** Result of the smoke workflows; times are workflow time in epoch milliseconds. */
export interface PingResult {
  echoed: string;
  startedAt: number;
  finishedAt: number;
}

/** Where a `ping` run currently is. */
export type PingStatus = 'started' | 'waiting' | 'echoing' | 'done';

/** Reports the status of a smoke workflow. */
export const pingStatusQuery = defineQuery<PingStatus>('pingStatus');

/** Releases a `ping` started with `waitForSignal`. */
export const pingContinueSignal = defineSignal('pingContinue');

/** Activities the smoke workflows call. */
export interface SmokeActivities {
  echo(message: string): Promise<string>;
}

/** Smoke workflows that prove the runtime end to end: activity calls, queries, signals and timers. */
import { condition, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import {
  type PingInput,
  type PingResult,
  type PingStatus,
  pingContinueSignal,
  pingStatusQuery,
  type SleepingPingInput,
  type SmokeActivities,
} from './shared.ts';

const { echo } = proxyActivities<SmokeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 seconds',
    maximumAttempts: 5,
  },
});

/** Echoes a message through an activity; with `waitForSignal`, first waits for `pingContinue`. */
export async function ping(input: PingInput): Promise<PingResult> {
  const startedAt = Date.now();
  let status: PingStatus = 'started';
  let released = false;
  setHandler(pingStatusQuery, () => status);
  setHandler(pingContinueSignal, () => {
    released = true;
  });
  if (input.waitForSignal === true) {
    status = 'waiting';
    await condition(() => released);
  }
  status = 'echoing';
  const echoed = await echo(input.message);
  status = 'done';
  return { echoed, startedAt, finishedAt: Date.now() };
}

/** Sleeps for the given duration, then echoes; exercises durable timers. */
export async function sleepingPing(input: SleepingPingInput): Promise<PingResult> {
  const startedAt = Date.now();
  let status: PingStatus = 'waiting';
  setHandler(pingStatusQuery, () => status);
  await sleep(input.duration);
  status = 'echoing';
  const echoed = await echo(input.message);
  status = 'done';
  return { echoed, startedAt, finishedAt: Date.now() };
}

/**
 * The Temporal client's retries of failed calls, with a drain for shutdown. The SDK's retry interceptor
 * schedules each retry on a timer that outlives the call's own deadline or abort; a connection closed
 * while such a timer is pending makes the timer throw. The gate lets pending retries fire, refuses new
 * ones once the service stops, and only then is the connection closed.
 */
import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

/** An interceptor to give the connection, and the wait before it may close. */
export interface RetryGate {
  interceptor: ReturnType<typeof makeGrpcRetryInterceptor>;
  /** Refuses new retries and resolves once every scheduled one has fired. */
  drain(): Promise<void>;
}

/** The SDK's default retry behaviour, gated for shutdown. */
export function createRetryGate(): RetryGate {
  const base = defaultGrpcRetryOptions();
  let pending = 0;
  let closing = false;
  const interceptor = makeGrpcRetryInterceptor({
    retryableDecider: (attempt, status) => !closing && base.retryableDecider(attempt, status),
    delayFunction: (attempt, status) => {
      const ms = base.delayFunction(attempt, status);
      pending += 1;
      // Counted until just after the retry's timer fired (it starts its call synchronously).
      setTimeout(() => {
        pending -= 1;
      }, ms + 20);
      return ms;
    },
  });
  return {
    interceptor,
    async drain() {
      closing = true;
      while (pending > 0) await new Promise((r) => setTimeout(r, 25));
    },
  };
}

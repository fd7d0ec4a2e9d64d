/** A bound on one call into Temporal, whatever the client's own retries are doing. */
import type { Client } from '@temporalio/client';

/** How long one workflow call may take before it is left to the dispatcher's sweep. */
export const workflowCallTimeoutMs = 5_000;

/** A Temporal call that did not answer within its bound. */
class TemporalCallTimeout extends Error {
  constructor(ms: number) {
    super(`Temporal did not answer within ${ms} ms`);
    this.name = 'TemporalCallTimeout';
  }
}

/**
 * Runs a client call and gives up after `ms`, whatever the client's own retries are doing (a retry
 * waiting on its backoff would otherwise hold the answer past any deadline); the call is aborted then.
 */
export async function callWithin<T>(client: Client, ms: number, call: () => Promise<T>): Promise<T> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      client.connection.withAbortSignal(abort.signal, call),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TemporalCallTimeout(ms)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/**
 * Activity failures that no retry can cure, as the worker marks them and as workflows recognise them.
 * Safe to import inside the workflow sandbox.
 */
import { ActivityFailure, ApplicationFailure, type LocalActivityOptions } from '@temporalio/common';

/** Error types of activity failures the worker made non-retryable. */
export const finalFailureTypes = {
  /** The database refused a value (SQLSTATE class 22: NUL in text, too long, out of range). */
  invalidData: 'database_invalid_data',
  /** The database refused the write by a rule (class 23: not null, foreign key, unique, check). */
  constraint: 'database_constraint',
  /** The activity's input or a stored value failed validation (a zod schema). */
  invalidInput: 'invalid_input',
  /** A step asked for a status move its machine does not have (packages/db transitions.ts). */
  illegalTransition: 'illegal_transition',
} as const;

/**
 * The non-retryable failure behind an activity's failure, or undefined when it failed any other way. An
 * ordinary activity's failure wraps it in an ActivityFailure; a local activity's is the failure itself.
 */
export function finalFailureOf(error: unknown): ApplicationFailure | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof ApplicationFailure && cause.nonRetryable ? cause : undefined;
}

/** Runs a step; a failure made final is handed to `onFinal` (whose result is returned), any other is thrown. */
export async function unlessFinal<T, R>(
  step: () => Promise<T>,
  onFinal: (final: ApplicationFailure) => R | Promise<R>,
): Promise<T | R> {
  try {
    return await step();
  } catch (error) {
    const final = finalFailureOf(error);
    if (!final) throw error;
    return onFinal(final);
  }
}

/** E-mails as local activities: no round trip through the server; long outages back off on timers. */
export const localMailOptions: LocalActivityOptions = {
  startToCloseTimeout: '1 minute',
  localRetryThreshold: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};

/** Memo key of the last step a workflow noted as failed for good, shown in the Temporal UI. */
export const failedStepMemo = 'last_failed_step';

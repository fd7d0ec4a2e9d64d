/**
 * Activity failures that no retry can cure, as the worker marks them and as workflows recognise them.
 * Safe to import inside the workflow sandbox.
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';

/** Error types of activity failures the worker made non-retryable. */
export const finalFailureTypes = {
  /** The database refused a value (SQLSTATE class 22: NUL in text, too long, out of range). */
  invalidData: 'DatabaseInvalidData',
  /** The database refused the write by a rule (class 23: not null, foreign key, unique, check). */
  constraint: 'DatabaseConstraint',
  /** The activity's input or a stored value failed validation (a zod schema). */
  invalidInput: 'InvalidInput',
} as const;

/** The non-retryable failure behind an activity's failure, or undefined when it failed any other way. */
export function finalFailureOf(error: unknown): ApplicationFailure | undefined {
  if (!(error instanceof ActivityFailure)) return undefined;
  const cause = error.cause;
  return cause instanceof ApplicationFailure && cause.nonRetryable ? cause : undefined;
}

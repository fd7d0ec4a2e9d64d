/**
 * The one place that decides which activity failures are final: whatever an activity throws that a
 * retry cannot cure (a value or rule the database refuses, a failed validation) leaves it as a
 * non-retryable ApplicationFailure, logged and counted, so no workflow waits on it forever.
 */

import { printableText } from '@checkout/core';
import { databaseErrorKind, IllegalTransitionError, sqlState } from '@checkout/db';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { finalFailureTypes } from './finalFailure.ts';

/** What the worker reports of each final failure, for metrics. */
export interface FinalFailure {
  activity: string;
  type: string;
}

const foreignKeyViolation = '23503';

function isZodError(error: unknown): error is Error & { issues: unknown[] } {
  return (
    error instanceof Error &&
    error.name === 'ZodError' &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

/** The non-retryable failure `error` stands for, or undefined when a retry may still succeed. */
export function toFinalFailure(error: unknown): ApplicationFailure | undefined {
  if (error instanceof ApplicationFailure) return undefined;
  // A row may reference one its creator has not committed yet (a request still in its transaction).
  if (sqlState(error) === foreignKeyViolation) return undefined;
  const kind = databaseErrorKind(error);
  const type =
    kind === 'invalid_data'
      ? finalFailureTypes.invalidData
      : kind === 'constraint'
        ? finalFailureTypes.constraint
        : isZodError(error)
          ? finalFailureTypes.invalidInput
          : error instanceof IllegalTransitionError
            ? finalFailureTypes.illegalTransition
            : undefined;
  if (!type) return undefined;
  const state = sqlState(error);
  const reason = printableText((error as Error).message ?? String(error));
  return ApplicationFailure.create({
    type,
    nonRetryable: true,
    message: state ? `${reason} (SQLSTATE ${state})` : reason,
    cause: error as Error,
  });
}

/** Activity interceptors that turn final failures non-retryable; `onFinalFailure` counts them. */
export function finalFailureInterceptors(
  onFinalFailure?: (failure: FinalFailure) => void,
): ActivityInterceptorsFactory {
  return () => ({
    inbound: {
      async execute(input, next) {
        try {
          return await next(input);
        } catch (error) {
          const final = toFinalFailure(error);
          if (!final) throw error;
          const context = Context.current();
          const activity = context.info.activityType;
          context.log.error('activity failed for good: a retry cannot succeed', {
            activity,
            type: final.type,
            error: final.message,
          });
          onFinalFailure?.({ activity, type: final.type ?? 'unknown' });
          throw final;
        }
      },
    },
  });
}

import { Uuid } from '@checkout/core';
import { checkTransition, offrampTransitions } from '@checkout/db';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { finalFailureTypes } from './finalFailure.ts';
import { toFinalFailure } from './finalFailureInterceptor.ts';

const dbError = (code: string, message = 'refused') => Object.assign(new Error(message), { code });

describe('toFinalFailure', () => {
  it('makes refused data, broken rules and failed validation non-retryable', () => {
    const nul = toFinalFailure(dbError('22P05', 'unsupported Unicode escape sequence'));
    expect(nul).toMatchObject({
      type: finalFailureTypes.invalidData,
      nonRetryable: true,
      message: 'unsupported Unicode escape sequence (SQLSTATE 22P05)',
    });
    expect(toFinalFailure(dbError('23505'))?.type).toBe(finalFailureTypes.constraint);
    expect(toFinalFailure(dbError('23514'))?.type).toBe(finalFailureTypes.constraint);
    expect(toFinalFailure(Uuid.safeParse('not-a-uuid').error)?.type).toBe(finalFailureTypes.invalidInput);
    let illegal: unknown;
    try {
      checkTransition('offramp', offrampTransitions, 'fiat_sent', 'sending_fiat');
    } catch (error) {
      illegal = error;
    }
    expect(toFinalFailure(illegal)).toMatchObject({
      type: finalFailureTypes.illegalTransition,
      nonRetryable: true,
      message: 'An offramp cannot move from fiat_sent to sending_fiat',
    });
  });

  it('leaves failures a retry may cure, and decisions already made, as they are', () => {
    for (const error of [
      dbError('23503'),
      dbError('40001'),
      dbError('57P01'),
      dbError('ECONNREFUSED'),
      new TypeError('fetch failed'),
      ApplicationFailure.retryable('not yet', 'kyc_user_not_found'),
    ]) {
      expect(toFinalFailure(error)).toBeUndefined();
    }
  });

  it('spells out characters a message could not be stored with', () => {
    expect(toFinalFailure(dbError('22021', 'bad byte \u0000'))?.message).toBe(
      'bad byte \\u0000 (SQLSTATE 22021)',
    );
  });
});

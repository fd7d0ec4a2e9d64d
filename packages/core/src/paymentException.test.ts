import { describe, expect, it } from 'vitest';
import { paymentExceptionStatus } from './paymentException.ts';

const busd = (units: bigint) => ({ units, decimals: 18 });
const usdc = (units: bigint) => ({ units, decimals: 6 });
const on = { late: false, txFailure: false };

describe('paymentExceptionStatus', () => {
  it('is null for an exact payment in time', () => {
    expect(
      paymentExceptionStatus({ expected: busd(25n * 10n ** 18n), received: busd(25n * 10n ** 18n), ...on }),
    ).toBeNull();
  });

  it('tells a partial and an over-payment down to one base unit', () => {
    const due = 25n * 10n ** 18n;
    expect(paymentExceptionStatus({ expected: busd(due), received: busd(due - 1n), ...on })).toBe(
      'paid_partially',
    );
    expect(paymentExceptionStatus({ expected: busd(due), received: busd(due + 1n), ...on })).toBe(
      'paid_over',
    );
  });

  it('compares tokens of different decimals exactly', () => {
    expect(
      paymentExceptionStatus({
        expected: busd(12_500_000_000_000_000_000n),
        received: usdc(12_500_000n),
        ...on,
      }),
    ).toBeNull();
    expect(
      paymentExceptionStatus({
        expected: usdc(12_500_000n),
        received: busd(12_499_999_999_999_999_999n),
        ...on,
      }),
    ).toBe('paid_partially');
  });

  it('says late only for an exact amount, and nothing for a failed transaction', () => {
    const due = busd(10n);
    expect(paymentExceptionStatus({ expected: due, received: busd(10n), late: true, txFailure: false })).toBe(
      'paid_late',
    );
    expect(paymentExceptionStatus({ expected: due, received: busd(9n), late: true, txFailure: false })).toBe(
      'paid_partially',
    );
    expect(
      paymentExceptionStatus({ expected: due, received: busd(0n), late: false, txFailure: true }),
    ).toBeNull();
  });
});

describe('paymentExceptionStatus: what is most pressing first', () => {
  const exact = {
    expected: { units: 100n, decimals: 2 },
    received: { units: 100n, decimals: 2 },
    late: false,
    txFailure: false,
  };
  it('says reversed before anything else, even of a failed transaction', () => {
    expect(paymentExceptionStatus({ ...exact, received: { units: 50n, decimals: 2 }, reversed: true })).toBe(
      'reversed',
    );
    expect(paymentExceptionStatus({ ...exact, txFailure: true, reversed: true })).toBe('reversed');
  });
  it('says paid_twice before the amount while a duplicate waits', () => {
    expect(
      paymentExceptionStatus({ ...exact, received: { units: 150n, decimals: 2 }, paidTwice: true }),
    ).toBe('paid_twice');
    expect(paymentExceptionStatus({ ...exact, paidTwice: false })).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { resolvePaymentRail } from './resolvePaymentRail.ts';

describe('resolvePaymentRail', () => {
  it.each([
    ['usd', undefined, 'local'],
    ['usd', null, 'local'],
    ['usd', '', 'local'],
    ['usd', 'wire', 'wire'],
    ['usd', 'swift', 'swift'],
    ['eur', null, 'local'],
    ['eur', 'swift', 'swift'],
    ['gbp', null, 'swift'],
    ['jpy', undefined, 'swift'],
    ['cop', null, 'local'],
    ['cop', 'koywe', 'koywe'],
    ['mxn', 'local', 'local'],
  ])('%s with rails %j is paid over %s', (currency, rails, rail) => {
    expect(resolvePaymentRail(currency, rails)).toBe(rail);
  });

  it.each([
    ['usd', 'koywe'],
    ['eur', 'wire'],
    ['gbp', 'local'],
    ['mxn', 'swift'],
    ['usd', 'SWIFT'],
    ['usd', 'toString'],
    ['xyz', null],
    ['USD', null],
    ['constructor', null],
  ])('%s with rails %j has no rail', (currency, rails) => {
    expect(resolvePaymentRail(currency, rails)).toBeUndefined();
  });
});

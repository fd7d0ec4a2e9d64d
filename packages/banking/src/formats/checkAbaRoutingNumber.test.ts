import { describe, expect, it } from 'vitest';
import { checkAbaRoutingNumber } from './checkAbaRoutingNumber.ts';

describe('checkAbaRoutingNumber', () => {
  // JPMorgan Chase NY, Federal Reserve Boston, Bank of America (NY, CA), Chase CA, Wells Fargo MN.
  it.each(['021000021', '011000015', '026009593', '121000358', '322271627', '091000019'])(
    'accepts %s',
    (aba) => {
      expect(checkAbaRoutingNumber(aba)).toBeUndefined();
    },
  );

  it.each([
    ['02100002', 'must be 9 digits'],
    ['0210000210', 'must be 9 digits'],
    ['02100002X', 'must be 9 digits'],
    ['021-000-021', 'must be 9 digits'],
    ['131000004', 'must start with a Federal Reserve routing symbol (00–12, 21–32, 61–72 or 80)'],
    ['500000005', 'must start with a Federal Reserve routing symbol (00–12, 21–32, 61–72 or 80)'],
    ['021000022', 'has a wrong check digit'],
    ['026009594', 'has a wrong check digit'],
  ])('rejects %s', (aba, message) => {
    expect(checkAbaRoutingNumber(aba)).toBe(message);
  });
});

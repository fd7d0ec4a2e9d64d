import { describe, expect, it } from 'vitest';
import { checkSortCode } from './checkSortCode.ts';

describe('checkSortCode', () => {
  it.each(['200000', '20-00-00', '40-47-84', '309634'])('accepts %s', (sortCode) => {
    expect(checkSortCode(sortCode)).toBeUndefined();
  });

  it.each(['20000', '2000000', '20-0000', '20 00 00', '2O-00-00', '20--00-00'])('rejects %s', (sortCode) => {
    expect(checkSortCode(sortCode)).toBe('must be 6 digits, optionally written 12-34-56');
  });
});

import { describe, expect, it } from 'vitest';
import { checkCurp } from './checkCurp.ts';

describe('checkCurp', () => {
  // stdnum's samples: births in 1931, 1999, 2005 (a letter in position 17), 1972, 1947, 1970.
  it.each([
    'BOXW310820HNERXN09',
    'HELO990501HVZRPN09',
    'MASI050805MVZRLRA8',
    'COME721110MVZNRR03',
    'TEAM470622HVZZPR07',
    'GARS700923HSPLXL06',
  ])('accepts %s', (curp) => {
    expect(checkCurp(curp)).toBeUndefined();
  });

  it.each([
    ['HELLO', 'must be an 18-character CURP such as BOXW310820HNERXN09'],
    ['BOXW310820HNERXN0', 'must be an 18-character CURP such as BOXW310820HNERXN09'],
    ['BOXW310820HNERXN0X', 'must be an 18-character CURP such as BOXW310820HNERXN09'],
    ['BOXW311320HNERXN09', 'has a birth date (characters 5 to 10) that is not a real past date'],
    ['BOXW310231HNERXN09', 'has a birth date (characters 5 to 10) that is not a real past date'],
    // A letter in position 17 means a birth from 2000 on: 2031 is in the future.
    ['BOXW310820HNERXNA9', 'has a birth date (characters 5 to 10) that is not a real past date'],
    ['BOXW310820QNERXN09', 'has an unknown sex, state or name code'],
    ['BOXW310820HZZRXN09', 'has an unknown sex, state or name code'],
    ['BOXW310820HNERXN08', 'has a wrong check digit'],
  ])('rejects %s', (curp, message) => {
    expect(checkCurp(curp)).toBe(message);
  });
});

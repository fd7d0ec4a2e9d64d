import { describe, expect, it } from 'vitest';
import { checkBic } from './checkBic.ts';

describe('checkBic', () => {
  it.each(['DEUTDEFF', 'DEUTDEFF500', 'NWBKGB2L', 'BNPAFRPP', 'CHASUS33', 'BCMRMXMMPYM', 'deutdeff'])(
    'accepts %s',
    (bic) => {
      expect(checkBic(bic)).toBeUndefined();
    },
  );

  const shape =
    'must be 8 or 11 characters: 4-letter bank code, 2-letter country code, 2-character location, optional 3-character branch';
  it.each([
    ['DEUTDEF', shape],
    ['DEUTDEFF5', shape],
    ['DEUTDEFF50000', shape],
    ['DEUT DEFF', shape],
    ['1EUTDEFF', shape],
    ['DEUTZZFF', 'has ZZ as its country, which is not a country code'],
  ])('rejects %s', (bic, message) => {
    expect(checkBic(bic)).toBe(message);
  });
});

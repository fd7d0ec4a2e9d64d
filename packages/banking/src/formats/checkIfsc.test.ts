import { describe, expect, it } from 'vitest';
import { checkIfsc } from './checkIfsc.ts';

describe('checkIfsc', () => {
  // State Bank of India, HDFC Bank, ICICI Bank branches.
  it.each(['SBIN0000300', 'HDFC0000001', 'ICIC0000011', 'UTIB0CCH274'])('accepts %s', (ifsc) => {
    expect(checkIfsc(ifsc)).toBeUndefined();
  });

  it.each(['SBIN1000300', 'SBIN000030', 'SBIN00003000', 'sbin0000300', 'SB1N0000300', 'SBIN0-00300'])(
    'rejects %s',
    (ifsc) => {
      expect(checkIfsc(ifsc)).toBe(
        'must be 11 characters: a 4-letter bank code, 0, then 6 letters or digits',
      );
    },
  );
});

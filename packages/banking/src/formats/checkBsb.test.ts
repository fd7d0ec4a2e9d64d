import { describe, expect, it } from 'vitest';
import { checkBsb } from './checkBsb.ts';

describe('checkBsb', () => {
  // Commonwealth Bank and Westpac branches.
  it.each(['062000', '062-000', '032-001'])('accepts %s', (bsb) => {
    expect(checkBsb(bsb)).toBeUndefined();
  });

  it.each(['06200', '0620000', '06-2000', '062 000', 'O62-000'])('rejects %s', (bsb) => {
    expect(checkBsb(bsb)).toBe('must be 6 digits, optionally written 123-456');
  });
});

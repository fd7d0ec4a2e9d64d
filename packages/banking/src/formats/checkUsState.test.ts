import { describe, expect, it } from 'vitest';
import { checkUsState } from './checkUsState.ts';

describe('checkUsState', () => {
  it.each(['CA', 'NY', 'TX', 'DC', 'PR', 'WY'])('accepts %s', (state) => {
    expect(checkUsState(state)).toBeUndefined();
  });

  it.each(['ca', 'California', 'XX', 'ON', 'C'])('rejects %s', (state) => {
    expect(checkUsState(state)).toBe('must be a two-letter US state code such as CA');
  });
});

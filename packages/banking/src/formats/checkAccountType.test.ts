import { describe, expect, it } from 'vitest';
import { checkAccountType } from './checkAccountType.ts';

describe('checkAccountType', () => {
  it.each(['checking', 'savings'])('accepts %s', (type) => {
    expect(checkAccountType(type)).toBeUndefined();
  });

  it.each(['Checking', 'saving', 'current', 'corriente', ''])('rejects %s', (type) => {
    expect(checkAccountType(type)).toBe('must be one of: checking, savings');
  });
});

import { describe, expect, it } from 'vitest';
import { checkRuc } from './checkRuc.ts';

describe('checkRuc', () => {
  it.each(['20512333797', '20480977239', '20503644968'])('accepts %s', (ruc) => {
    expect(checkRuc(ruc)).toBeUndefined();
  });

  it.each([
    ['HELLO', 'must be an 11-digit RUC'],
    ['205123337', 'must be an 11-digit RUC'],
    ['20512333798', 'has a wrong check digit'],
    ['30512333797', 'must start with 10, 15, 16, 17 or 20 (the taxpayer type)'],
  ])('rejects %s', (ruc, message) => {
    expect(checkRuc(ruc)).toBe(message);
  });
});

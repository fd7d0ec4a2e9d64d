import { describe, expect, it } from 'vitest';
import { checkClabe } from './checkClabe.ts';

describe('checkClabe', () => {
  // Published CLABEs of Mexican businesses and the textbook example.
  it.each([
    '032180000118359719',
    '002010077777777771',
    '012180004424133881',
    '002164460100681188',
    '646180157000000004',
  ])('accepts %s', (clabe) => {
    expect(checkClabe(clabe)).toBeUndefined();
  });

  it.each([
    ['03218000011835971', 'must be an 18-digit CLABE'],
    ['0321800001183597190', 'must be an 18-digit CLABE'],
    ['032 180 000118359719', 'must be an 18-digit CLABE'],
    ['03218000011835971X', 'must be an 18-digit CLABE'],
    ['032180000118359718', 'has a wrong check digit'],
    ['012180004424133882', 'has a wrong check digit'],
  ])('rejects %s', (clabe, message) => {
    expect(checkClabe(clabe)).toBe(message);
  });
});

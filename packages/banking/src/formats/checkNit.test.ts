import { describe, expect, it } from 'vitest';
import { checkNit } from './checkNit.ts';

describe('checkNit', () => {
  it.each(['2131234321', '9005444722', '8600029644'])('accepts %s', (nit) => {
    expect(checkNit(nit)).toBeUndefined();
  });

  it.each([
    ['HELLO', 'must be a NIT with its check digit, such as 900.544.472-2'],
    ['21312', 'must be a NIT with its check digit, such as 900.544.472-2'],
    ['2131234325', 'has a wrong check digit (the last digit, after the dash)'],
    ['9005444723', 'has a wrong check digit (the last digit, after the dash)'],
  ])('rejects %s', (nit, message) => {
    expect(checkNit(nit)).toBe(message);
  });
});

import { describe, expect, it } from 'vitest';
import { checkColombianCedula } from './checkColombianCedula.ts';

describe('checkColombianCedula', () => {
  it.each(['1020304050', '79123456', '123'])('accepts %s', (cedula) => {
    expect(checkColombianCedula(cedula)).toBeUndefined();
  });

  it.each(['HELLO', '12', '10203040501', '79.123.456'])('rejects %s', (cedula) => {
    expect(checkColombianCedula(cedula)).toBe('must be 3 to 10 digits');
  });
});

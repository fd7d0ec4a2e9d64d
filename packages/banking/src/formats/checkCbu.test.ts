import { describe, expect, it } from 'vitest';
import { checkCbu } from './checkCbu.ts';

describe('checkCbu', () => {
  // Banco Macro, Banco Galicia, Banco BBVA, and Mercado Pago CVUs (000 bank code).
  it.each([
    '2850590940090418135201',
    '0070081830004110591451',
    '0110599520000001235579',
    '0000003100028605363193',
  ])('accepts %s', (cbu) => {
    expect(checkCbu(cbu)).toBeUndefined();
  });

  it.each([
    ['285059094009041813520', 'must be a 22-digit CBU or CVU'],
    ['28505909400904181352011', 'must be a 22-digit CBU or CVU'],
    ['2850590940090418135201 ', 'must be a 22-digit CBU or CVU'],
    ['28505909-40090418135201', 'must be a 22-digit CBU or CVU'],
    ['2850590840090418135201', 'has a wrong check digit in its bank and branch block (8th digit)'],
    ['2850590940090418135202', 'has a wrong check digit in its account block (22nd digit)'],
  ])('rejects %s', (cbu, message) => {
    expect(checkCbu(cbu)).toBe(message);
  });
});

import { describe, expect, it } from 'vitest';
import { checkCuit } from './checkCuit.ts';

describe('checkCuit', () => {
  // AFIP, Banco de la Nación, MercadoLibre S.R.L., two individual CUILs.
  it.each(['33693450239', '30500010912', '30703088534', '20267565393', '20055361682'])(
    'accepts %s',
    (cuit) => {
      expect(checkCuit(cuit)).toBeUndefined();
    },
  );

  it('accepts 9 where the formula gives 10, as AFIP has issued such numbers', () => {
    // 2000000001x: weighted sum 10 + 2 = 12, remainder 1, formula gives 10.
    expect(checkCuit('20000000019')).toBeUndefined();
  });

  it.each([
    // The printed form is made electronic before the check (canonicalPaymentDetail).
    ['33-69345023-9', 'must be an 11-digit CUIT/CUIL, such as 20-26756539-3'],
    ['3369345023', 'must be an 11-digit CUIT/CUIL, such as 20-26756539-3'],
    ['336934502391', 'must be an 11-digit CUIT/CUIL, such as 20-26756539-3'],
    ['12345678', 'must be an 11-digit CUIT/CUIL, such as 20-26756539-3'],
    ['40693450231', 'must start with one of: 20, 23, 24, 27, 30, 33, 34'],
    // 25 and 26 are not issued; 50, 51, 55 are ARCA's per-country CUITs for foreign subjects (valid check digits).
    ['25267565395', 'must start with one of: 20, 23, 24, 27, 30, 33, 34'],
    ['26267565391', 'must start with one of: 20, 23, 24, 27, 30, 33, 34'],
    ['50000000016', 'must start with one of: 20, 23, 24, 27, 30, 33, 34'],
    ['51600000016', 'must start with one of: 20, 23, 24, 27, 30, 33, 34'],
    ['55000002126', 'must start with one of: 20, 23, 24, 27, 30, 33, 34'],
    ['33693450238', 'has a wrong check digit'],
    ['20267565394', 'has a wrong check digit'],
  ])('rejects %s', (cuit, message) => {
    expect(checkCuit(cuit)).toBe(message);
  });
});

import { describe, expect, it } from 'vitest';
import { checkRfc } from './checkRfc.ts';

describe('checkRfc', () => {
  // stdnum's samples: two people (13 characters), two companies (12).
  it.each(['GODE561231GR8', 'SALC7304253S0', 'MAB9307148T4', 'RET130705MD5'])('accepts %s', (rfc) => {
    expect(checkRfc(rfc)).toBeUndefined();
  });

  // SAT's check digit is not enforced: some issued RFCs fail it (python-stdnum's mx.rfc, by default, does not
  // check it either). These differ from the samples above in their check digit only.
  it.each(['GODE561231GR9', 'MAB9307148T5', 'RET130705MD6'])(
    'accepts %s, whose check digit SAT would refuse',
    (rfc) => {
      expect(checkRfc(rfc)).toBeUndefined();
    },
  );

  it.each([
    ['HELLO', 'must be an RFC with its homoclave: 12 characters for a company, 13 for a person'],
    // Without its homoclave an RFC carries no check digit.
    ['GODE561231', 'must be an RFC with its homoclave: 12 characters for a company, 13 for a person'],
    ['XAXX010101000', 'is a generic RFC of SAT, not the beneficiary’s own'],
    ['XEXX010101000', 'is a generic RFC of SAT, not the beneficiary’s own'],
    [
      'GODE561331GR8',
      'has a date (the 6 digits after the name letters) that is not a real date, or an impossible homoclave',
    ],
  ])('rejects %s', (rfc, message) => {
    expect(checkRfc(rfc)).toBe(message);
  });
});

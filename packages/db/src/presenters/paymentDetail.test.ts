import { randomBytes } from 'node:crypto';
import { PaymentDetail } from '@checkout/core';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../secretBox.ts';
import type { PaymentDetailRow } from '../usersSchema.ts';
import { presentPaymentDetail } from './paymentDetail.ts';

describe('presentPaymentDetail', () => {
  it('shows a detail stored as typed, by an older version, in the canonical form', () => {
    const secrets = createSecretBox(randomBytes(32));
    const typed = {
      account_name: ' Lucía Fernández ',
      currency: 'ars',
      beneficiary_type: 'individual',
      bank_name: 'banco macro s.a.',
      account_number: '2850 5909 4009 0418 1352 01',
      document_number: '27-12345678-0',
      account_type: 'savings',
      address_line1: 'Av. Corrientes 1234',
      city: 'Buenos Aires',
      postal_code: 'C1043',
      country: 'AR',
      iban: ' ar-00 ',
    };
    const row: PaymentDetailRow = {
      id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      user_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
      merchant_id: '6fa459ea-ee8a-4ca4-894e-db77e160355e',
      currency: 'ars',
      rails: null,
      beneficiary_type: 'individual',
      status: 'pending',
      status_version: 1,
      details_ciphertext: secrets.seal(JSON.stringify(typed)),
      created_at: new Date('2026-01-01T00:00:00Z'),
      updated_at: new Date('2026-01-01T00:00:00Z'),
    };
    const shown = presentPaymentDetail(row, secrets);
    expect(shown).toMatchObject({
      account_name: 'Lucía Fernández',
      bank_name: 'Banco Macro S.A.',
      account_number: '2850590940090418135201',
      document_number: '27123456780',
      iban: 'AR00',
    });
    expect(PaymentDetail.safeParse(shown).success).toBe(true);
  });
});

/** Area B payment details (bank accounts) and the Latam bank name list (spec 2.5, 2.8, 4.6-4.9, 4.13). */
import { z } from 'zod';
import { namedObject, Uuid } from './common.ts';

/** Lifecycle of a payment detail (research §5); only `approved` details can be paid. */
const paymentDetailStatuses = ['initiated', 'pending', 'approved', 'failed', 'deactivated'] as const;

/** Every input field of a payment detail (4.9 plus those partners ask for per currency). */
export const paymentDetailInputFields = [
  'account_name',
  'account_number',
  'currency',
  'address_line1',
  'address_line2',
  'city',
  'state',
  'postal_code',
  'country',
  'beneficiary_type',
  'routing_number',
  'bank_name',
  'sort_code',
  'iban',
  'swift_bic',
  'document_number',
  'document_type',
  'account_type',
  'rib_number',
  'purpose_of_transfer',
  'purpose_of_payment_code',
  'bsb_number',
  'rails',
  'company_number',
  'bank_code',
  'branch_code',
  'ncc',
  'ifsc',
  'phone',
  'neighbourhood',
  'date_of_birth',
  'activity',
  'nationality',
  'gender',
] as const;

const fieldValue = z.union([z.string().max(500), z.null()]).optional();

/** `payment_detail` of create and validate: every field an optional string; the format rules are the banking checks. */
export const PaymentDetailInput = z
  .strictObject(
    Object.fromEntries(paymentDetailInputFields.map((f) => [f, fieldValue])) as {
      [K in (typeof paymentDetailInputFields)[number]]: typeof fieldValue;
    },
  )
  .meta({ id: 'PaymentDetailInput' });
export type PaymentDetailInput = z.infer<typeof PaymentDetailInput>;

export const PaymentDetailBody = namedObject('PaymentDetailBody', { payment_detail: PaymentDetailInput });

/** A payment detail as shown (spec 2.5; address lines always address_line1/address_line2). */
export const PaymentDetail = namedObject('PaymentDetail', {
  id: Uuid,
  user_id: Uuid,
  bank_name: z.string(),
  account_name: z.string(),
  iban: z.string().nullable(),
  swift_bic: z.string().nullable(),
  beneficiary_type: z.enum(['individual', 'business']),
  company_number: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  account_number: z.string().nullable(),
  routing_number: z.string().nullable(),
  sort_code: z.string().nullable(),
  document_number: z.string().nullable(),
  account_type: z.string().nullable(),
  currency: z.string(),
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
  status: z.enum(paymentDetailStatuses),
  rails: z.string().nullable(),
});
export type PaymentDetail = z.infer<typeof PaymentDetail>;

export const PaymentDetailResponse = namedObject('PaymentDetailResponse', { payment_detail: PaymentDetail });

export const PaymentDetailListResponse = namedObject('PaymentDetailListResponse', {
  payment_details: z.array(PaymentDetail),
});

/** Result of the format check: `errors` is empty exactly when `valid` is true. */
export const PaymentDetailValidationResponse = namedObject('PaymentDetailValidationResponse', {
  payment_detail: z.strictObject({
    valid: z.boolean(),
    errors: z.array(z.strictObject({ field: z.string(), message: z.string() })),
  }),
});

/** Body of PATCH /sandbox/users/:id/payment_details/:id. */
export const SandboxPaymentDetailBody = namedObject('SandboxPaymentDetailBody', {
  payment_detail: z.strictObject({ status: z.enum(['initiated', 'pending', 'approved', 'failed']) }),
});

export const LatamBankNamesResponse = namedObject('LatamBankNamesResponse', {
  bank_names: z.array(z.string()),
});

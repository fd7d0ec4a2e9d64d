/** Resolved Payment: one completed checkout, successful or failed (spec 2.3). */
import { z } from 'zod';
import { paymentExceptionStatuses } from '../paymentException.ts';
import { namedObject } from './common.ts';
import { PaymentToken } from './product.ts';

/** Decimal amounts are strings on the wire. */
const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/);

export const ResolvedPayment = namedObject('ResolvedPayment', {
  is_test: z.boolean(),
  id: z.string(),
  product_id: z.string(),
  expected_payment_id: z.string(),
  product_secret: z.string(),
  slug: z.string(),
  dollar_amount: DecimalString,
  metadata: z.record(z.string(), z.unknown()).nullable(),
  user: z.strictObject({
    email: z.string(),
    custom_fields: z.record(z.string(), z.string()),
  }),
  payment: z.strictObject({
    expected_token: PaymentToken,
    received_token: PaymentToken,
    expected_token_amount: DecimalString,
    received_token_amount: DecimalString,
    amount_difference: DecimalString,
    /** Extension: `paid_partially`, `paid_over` or `paid_late`; null when nothing was unusual. */
    exception_status: z.enum(paymentExceptionStatuses).nullable(),
    receiving_address: z.string(),
    sender_address: z.string(),
    tx_id: z.string(),
    tx_success: z.boolean(),
    tx_failure: z.boolean(),
    swapped: z.boolean(),
    created_at: z.iso.datetime({ precision: 3 }),
  }),
});
export type ResolvedPayment = z.infer<typeof ResolvedPayment>;

export const ResolvedPaymentListResponse = namedObject('ResolvedPaymentList', {
  resolved_payments: z.array(ResolvedPayment),
});

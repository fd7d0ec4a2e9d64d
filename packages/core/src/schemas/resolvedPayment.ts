/** Resolved Payment: one completed checkout, successful or failed (spec 2.3). */
import { z } from 'zod';
import { paymentExceptionStatuses } from '../paymentException.ts';
import { namedObject, timeWindow, Uuid } from './common.ts';
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
    /** Extension: what the merchant's refunds of it sent back so far, in the received token (e.g. `"1.25"`). */
    refunded_amount: z.string(),
    /**
     * Extension: the payment's share of the gas (wei, an integer string) the mined sweeps of its session's
     * deposit address cost; null when it was not paid to a deposit address or is not swept yet.
     */
    sweep_gas_wei: z.string().regex(/^\d+$/).nullable(),
    created_at: z.iso.datetime({ precision: 3 }),
  }),
});
export type ResolvedPayment = z.infer<typeof ResolvedPayment>;

export const ResolvedPaymentListResponse = namedObject('ResolvedPaymentList', {
  resolved_payments: z.array(ResolvedPayment),
});

export const ResolvedPaymentResponse = namedObject('ResolvedPaymentResponse', {
  resolved_payment: ResolvedPayment,
});

/** The filters of GET /api/v1/resolved_payments and of its CSV export. */
const paymentFilters = {
  product_id: Uuid.optional(),
  /** `succeeded` (went through and stands), `failed` (the transaction failed), `reversed` (a reorganisation took it). */
  status: z.enum(['succeeded', 'failed', 'reversed']).optional(),
  exception: z.enum(paymentExceptionStatuses).optional(),
  mode: z.enum(['test', 'live']).optional(),
  ...timeWindow,
  /** A transaction hash, the shopper's e-mail, or the payment's, its expected payment's or its session's id. */
  q: z.string().max(320).optional(),
};

export const ResolvedPaymentExportQuery = namedObject('ResolvedPaymentExportQuery', paymentFilters);

export const ResolvedPaymentQuery = namedObject('ResolvedPaymentQuery', {
  ...paymentFilters,
  /** The `next_cursor` of the previous page. */
  cursor: Uuid.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** One page of a wallet's resolved payments; `next_cursor` is null on the last. */
export const ResolvedPaymentPage = namedObject('ResolvedPaymentPage', {
  resolved_payments: z.array(ResolvedPayment),
  next_cursor: z.string().nullable(),
});

/** Expected payments and checkout sessions: the public checkout flow (wire shapes). */
import { z } from 'zod';
import { fractionDigits, isDecimalString, parseUnits } from '../amount.ts';
import { displayText } from '../displayText.ts';
import { EvmAddress, exactlyOneOf, jsonRecord, namedObject, Timestamp, Uuid } from './common.ts';
import { customFieldNames, PaymentToken } from './product.ts';
import { SessionUnmatchedTransfer } from './unmatchedTransfer.ts';

/** Largest USD amount of one checkout. */
const maxDollarAmount = '1000000000';

const valid = (v: string) => isDecimalString(v) && fractionDigits(v) <= 2;

/** A USD amount: a decimal string greater than 0 with at most 2 decimals. */
const DollarAmount = z
  .string()
  .refine(valid, {
    message: 'must be a decimal string with at most 2 decimals, such as "25.00"',
  })
  .refine((v) => !valid(v) || parseUnits(v, 2) > 0n, { message: 'must be greater than 0' })
  .refine((v) => !valid(v) || parseUnits(v, 2) <= parseUnits(maxDollarAmount, 2), {
    message: `must not exceed ${maxDollarAmount}`,
  })
  // The three rules above as one pattern, so the document states them.
  .meta({
    example: '25.00',
    pattern: '^([1-9][0-9]{0,8}(\\.[0-9]{1,2})?|1000000000(\\.0{1,2})?|0\\.(0[1-9]|[1-9][0-9]?))$',
  });

/** Free-form merchant metadata: a JSON object of at most 50 keys and 8 KiB, nested at most 32 levels. */
const Metadata = jsonRecord(z.string().max(64))
  .refine((v) => Object.keys(v).length <= 50, {
    message: 'must have at most 50 keys',
  })
  .refine((v) => JSON.stringify(v).length <= 8192, { message: 'must be at most 8 KiB as JSON' });

/** Body of POST /api/v1/products/:id/expected_payments. */
export const ExpectedPaymentCreateBody = namedObject('ExpectedPaymentCreateBody', {
  dollar_amount: DollarAmount,
  metadata: Metadata.nullable().optional(),
  customer_email: z.email().max(254).nullable().optional(),
});

/** Lifecycle of an expected payment. */
/** `closed`: a shopper's attempt given up (its amount changed, another wallet, started again); it takes nothing. */
const expectedPaymentStatuses = ['open', 'confirming', 'paid', 'failed', 'expired', 'closed'] as const;

/** An expected payment: the amount a checkout will charge, set by the merchant's server. */
export const ExpectedPayment = namedObject('ExpectedPayment', {
  id: Uuid,
  product_id: Uuid,
  dollar_amount: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  customer_email: z.string().nullable(),
  status: z.enum(expectedPaymentStatuses),
  checkout_url: z.string(),
  resolved_payment_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ExpectedPayment = z.infer<typeof ExpectedPayment>;
export const ExpectedPaymentResponse = namedObject('ExpectedPaymentResponse', {
  expected_payment: ExpectedPayment,
});

/** A token in the public checkout view. */
const CheckoutToken = PaymentToken.extend({ chain_id: z.number().int() }).meta({
  id: 'CheckoutToken',
});

/** What the widget needs to render a product's checkout; no secrets. */
export const CheckoutView = namedObject('CheckoutView', {
  slug: z.string(),
  name: z.string(),
  active: z.boolean(),
  is_test: z.boolean(),
  token: CheckoutToken,
  /** Tokens a shopper may pay with: the product token, plus swap sources when swappable. */
  payment_tokens: z.array(CheckoutToken),
  custom_fields: z.array(z.enum(customFieldNames)),
  open_amount: z.boolean(),
  swappable: z.boolean(),
  /** Whether the merchant sends the shopper a receipt by e-mail (the product's `send_email`). */
  sends_receipt: z.boolean(),
  tax_rate: z.number(),
  expires_in_minutes: z.number().int().nullable(),
  receiving_address: z.string(),
  chain_id: z.number().int(),
  blockchain: z.string(),
  network: z.string(),
  router_address: z.string().nullable(),
  rpc_url: z.string().nullable(),
  required_confirmations: z.number().int(),
  success_url: z.string(),
  failure_url: z.string(),
  expected_payment: z
    .strictObject({
      id: Uuid,
      dollar_amount: z.string(),
      expected_token_amount: z.string(),
      status: z.enum(expectedPaymentStatuses),
      session_id: z.string().nullable(),
    })
    .nullable(),
});
export type CheckoutView = z.infer<typeof CheckoutView>;

/** Body of POST /api/v1/checkout/:slug/sessions. */
export const CheckoutSessionCreateBody = z
  .strictObject({
    expected_payment_id: Uuid.optional(),
    dollar_amount: DollarAmount.optional(),
    email: z.email().max(254),
    custom_fields: z.record(z.string(), displayText(z.string().max(500))).default({}),
    /** The payer's wallet; absent or null to pay from another device (the session gets a unique amount). */
    sender_address: EvmAddress.nullable().optional(),
    token_address: EvmAddress,
    /** The shopper's language (BCP 47, e.g. `es-ES`): their receipt is written in it (en, es or pt). */
    locale: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en, es-ES or pt-BR')
      .optional(),
  })
  .superRefine(exactlyOneOf('expected_payment_id', 'dollar_amount'))
  .meta({ id: 'CheckoutSessionCreateBody' });

/** Body of POST /api/v1/checkout/sessions/:id/transactions. */
export const CheckoutTransactionBody = namedObject('CheckoutTransactionBody', {
  tx_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash'),
});

/** Where a checkout session is. */
const checkoutSessionStatuses = [
  'awaiting_payment',
  'confirming',
  'resolved',
  'failed',
  'expired',
  'closed',
] as const;

/** A checkout session as the shopper's widget sees it. */
export const CheckoutSession = namedObject('CheckoutSession', {
  id: Uuid,
  expected_payment_id: Uuid,
  status: z.enum(checkoutSessionStatuses),
  dollar_amount: z.string(),
  expected_token: PaymentToken,
  expected_token_amount: z.string(),
  payment_token_address: z.string(),
  receiving_address: z.string(),
  sender_address: z.string().nullable(),
  /**
   * The session's reference (`0x` and 64 hex digits, random): a transaction paying the session carries it
   * anywhere in its input (appended to its calldata), and that alone attributes the payment to it.
   */
  reference: z.string().regex(/^0x[0-9a-f]{64}$/),
  /**
   * The transaction that pays the session directly: the token's `transfer(receiving_address,
   * expected_token_amount)` (to `deposit_address` when the session has one) with the reference appended. Null when the session pays through a swap (its
   * `payment_token_address` is another token): the swap's calldata carries the reference instead.
   */
  transaction: z
    .strictObject({
      chain_id: z.number().int(),
      to: z.string(),
      data: z.string(),
      value: z.literal('0'),
    })
    .nullable(),
  /**
   * For a session opened without a payer on a chain in `deposit_address` mode: its own address (EIP-55),
   * the CREATE2 address of a forwarder that can only pay `receiving_address`. Any amount of
   * `expected_token` sent there pays this session (a shortfall or excess shows in the payment's
   * `amount_difference`), so a wallet or exchange that takes no URI sends `expected_token_amount` to it.
   * Null otherwise.
   */
  deposit_address: z.string().nullable(),
  /**
   * For a session opened without a payer (paid from another device): the EIP-681 URI of the transfer of its
   * amount, for a QR code: to its `deposit_address` when it has one, else of its exact reserved amount to
   * `receiving_address`; null otherwise.
   */
  payment_uri: z.string().nullable(),
  tx_hash: z.string().nullable(),
  confirmations: z.number().int(),
  required_confirmations: z.number().int(),
  resolved_payment_id: z.string().nullable(),
  late: z.boolean(),
  error: z.string().nullable(),
  /**
   * Transfers into the receiving address that arrived in this session's window, nearly its amount but not
   * it, and that no checkout took (a rounded QR amount): the merchant has been told.
   */
  unmatched_transfers: z.array(SessionUnmatchedTransfer),
  expires_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CheckoutSession = z.infer<typeof CheckoutSession>;
export const CheckoutSessionResponse = namedObject('CheckoutSessionResponse', { session: CheckoutSession });
/** The answer to opening a session: the session and, for its opener only, the secret that changes it. */
export const CheckoutSessionOpenedResponse = namedObject('CheckoutSessionOpenedResponse', {
  session: CheckoutSession,
  /**
   * Given once, to whoever opened the session (or proved to be its opener with `X-Client-Secret`); null for
   * anyone else. Closing the session and changing its e-mail, custom fields or token require it.
   */
  client_secret: z.string().nullable(),
});

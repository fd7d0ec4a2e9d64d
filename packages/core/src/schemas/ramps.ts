/** Request bodies of onramps, quotes and offramps (spec 2.6, 2.7, 4.10-4.12; research §7, §9). */
import { z } from 'zod';
import { decimalInput, EvmAddress, HttpUrl, jsonRecord, namedObject, Uuid } from './common.ts';

const code = z.string().trim().min(1).max(40).toLowerCase();

/** `POST /users/:id/onramps`. */
export const OnrampCreateBody = namedObject('OnrampCreateBody', {
  onramp: z.strictObject({
    destination_amount: decimalInput(2),
    crypto_currency: code,
    crypto_rails: code,
    destination_address: EvmAddress,
    fiat_currency: code,
    fiat_rails: code,
  }),
});

/** `POST /sandbox/users/:id/onramps/:oid/deposit`: the bank partner's deposit notification. */
export const SandboxDepositBody = z.strictObject({ amount: decimalInput(2) });

/** `POST /users/:id/quotes`. */
export const QuoteCreateBody = namedObject('QuoteCreateBody', {
  quote: z.strictObject({ deposit_token: code, deposit_token_chain: code }),
});

/** `POST /users/:id/quote/rate`: a one-payout price from either side (exactly one amount). */
export const QuoteRateBody = namedObject('QuoteRateBody', {
  quote: z
    .strictObject({
      deposit_token: code,
      deposit_token_chain: code,
      fiat_currency: code,
      rails: code.nullable().optional(),
      deposit_token_amount: decimalInput(18).optional(),
      fiat_amount: decimalInput(2).optional(),
    })
    .superRefine((q, ctx) => {
      if ((q.deposit_token_amount === undefined) === (q.fiat_amount === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [q.fiat_amount === undefined ? 'fiat_amount' : 'deposit_token_amount'],
          message: 'give exactly one of deposit_token_amount and fiat_amount',
        });
      }
    }),
});

/** `POST /users/:id/quotes/:qid/execute`. */
export const QuoteExecuteBody = namedObject('QuoteExecuteBody', {
  quote: z.strictObject({
    crypto_transfer: z.strictObject({
      tx_id: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash'),
      blockchain: code,
      network: code,
    }),
  }),
});

/** One offramp of `POST /users/:id/quotes/:qid/offramps`. */
const OfframpInput = z.strictObject({
  payment_detail_id: Uuid,
  destination_amount: decimalInput(2),
  destination_currency: code,
  rails: code.optional(),
  reference: z.string().trim().max(140).nullable().optional(),
  supporting_document_attributes: z.strictObject({ submitted_url: HttpUrl }).nullable().optional(),
  supporting_document_url: HttpUrl.nullable().optional(),
  metadata: jsonRecord().nullable().optional(),
});

/** `POST /users/:id/quotes/:qid/offramps`. */
export const OfframpsCreateBody = namedObject('OfframpsCreateBody', {
  offramps: z.array(OfframpInput).min(1).max(50),
});

/** `PATCH /users/:id/quotes/:qid/offramps/:oid`: only the reference changes. */
export const OfframpUpdateBody = namedObject('OfframpUpdateBody', {
  offramp: z.strictObject({ reference: z.string().trim().max(140).nullable() }),
});

/** `POST /users/:id/quotes/:qid/offramps/:oid/resend`: pays a bounced offramp out to another detail. */
export const OfframpResendBody = namedObject('OfframpResendBody', {
  offramp: z.strictObject({ payment_detail_id: Uuid }),
});

/** `POST /users/:id/quotes/:qid/offramps/:oid/refund`: returns a bounced offramp's tokens (to the sender by default). */
export const OfframpRefundBody = namedObject('OfframpRefundBody', {
  offramp: z.strictObject({ refund_address: EvmAddress.optional() }),
});

// Responses. The presenters in @checkout/db build these shapes; the integration tests parse every ramp
// response with them, so the OpenAPI document generated from them cannot drift from the wire.

/** Onramp statuses (docs/area-b-decisions.md). */
const onrampStatuses = [
  'initiated',
  'held',
  'funds_received',
  'sending_crypto',
  'crypto_sent',
  'failed',
  'expired',
] as const;

/** Offramp statuses (research §7). */
const offrampStatuses = [
  'initiated',
  'pending_internal_assessment',
  'sending_fiat',
  'fiat_sent',
  'bounced',
  'failed',
] as const;

/** Bank instructions of a new onramp. */
const DepositInstructions = namedObject('DepositInstructions', {
  bank_account_number: z.string(),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_beneficiary_name: z.string(),
  bank_routing_number: z.string(),
  deposit_message: z.string().meta({ example: 'BVK3M9QX2C7HW4' }),
});

/** Fiat an onramp returns to the sending account through the bank partner (extension). */
const OnrampRefund = namedObject('OnrampRefund', {
  reason: z.enum(['excess', 'late_deposit', 'onramp_failed']).meta({
    description:
      'excess: the part of a deposit above deposit_amount; late_deposit: a deposit reported after funding or expiry; onramp_failed: the deposit of an onramp whose delivery failed',
  }),
  deposit_id: Uuid.nullable().meta({ description: 'The deposit returned; null for onramp_failed' }),
  amount: z.number().meta({ description: 'Fiat, in the onramp currency' }),
  status: z.enum(['pending', 'sent', 'failed']),
  reference: z.string().nullable().meta({ description: "The bank partner's return reference, once sent" }),
});

/** An onramp (spec 2.7 plus `status_message`, `received_amount`, `tx_id` and `refunds`). */
const Onramp = namedObject('Onramp', {
  id: Uuid,
  user_id: Uuid,
  status: z.enum(onrampStatuses),
  status_message: z.string().nullable(),
  crypto_currency: z.string().meta({ example: 'usdc' }),
  crypto_rails: z.string().meta({ example: 'polygon' }),
  destination_amount: z.number().meta({ example: 1000 }),
  fee: z.number().meta({ example: 4 }),
  destination_address: z.string(),
  fiat_currency: z.string().meta({ example: 'usd' }),
  fiat_rails: z.string().meta({ example: 'ach_push' }),
  deposit_amount: z.number().meta({ example: 1004 }),
  received_amount: z.number(),
  tx_id: z.string().nullable().meta({ description: 'The treasury transfer, once crypto_sent' }),
  refunds: z.array(OnrampRefund),
  deposit_instructions: DepositInstructions.optional().meta({ description: 'Returned by create only' }),
});

export const OnrampResponse = namedObject('OnrampResponse', { onramp: Onramp });
export const OnrampListResponse = namedObject('OnrampListResponse', { onramps: z.array(Onramp) });

/** The sandbox bank partner's acknowledgement of a deposit notice. */
export const SandboxDepositResponse = namedObject('SandboxDepositResponse', {
  deposit: z.strictObject({ id: Uuid, onramp_id: Uuid, amount: z.number() }),
});

/** The refund of a failed payout's tokens (extension). */
const OfframpRefund = namedObject('OfframpRefund', {
  status: z.enum(['pending', 'sent', 'failed']),
  address: z.string().nullable(),
  amount: z.number().nullable().meta({ description: "In the quote's deposit token" }),
  tx_id: z.string().nullable().meta({ description: 'The refund transfer, once sent' }),
});

/** An offramp (research §7 plus `refund`). */
const Offramp = namedObject('Offramp', {
  id: Uuid,
  user_id: Uuid,
  payment_detail_id: Uuid,
  quote_id: Uuid,
  status: z.enum(offrampStatuses),
  status_message: z.string().nullable(),
  destination_amount: z.number(),
  destination_currency: z.string(),
  reference: z.string().nullable(),
  rails: z.string(),
  rate: z.number(),
  fee: z.number(),
  supporting_document: z
    .strictObject({ submitted_url: z.string(), status: z.literal('not_checked') })
    .nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  refund: OfframpRefund.nullable(),
});

export const OfframpResponse = namedObject('OfframpResponse', { offramp: Offramp });
export const OfframpListResponse = namedObject('OfframpListResponse', { offramps: z.array(Offramp) });

/** Tokens a quote returns to their sender from the treasury because no payout uses them (extension). */
const QuoteRefund = namedObject('QuoteRefund', {
  reason: z.enum(['quote_expired', 'excess', 'extra_transfer']).meta({
    description:
      'quote_expired: sent to a quote that expired unexecuted; excess: what the executing transfer sent above deposit_token_amount; extra_transfer: another transfer to an executed quote',
  }),
  status: z.enum(['pending', 'sent', 'failed']),
  address: z.string().meta({ description: 'The sender of the incoming transfer' }),
  amount: z.number().meta({ description: "In the quote's deposit token" }),
  deposit_tx_id: z.string().meta({ description: 'The incoming transaction returned' }),
  tx_id: z.string().nullable().meta({ description: 'The refund transfer, once sent' }),
});

/** A quote with its deposit address, funding transfer and offramps (spec 2.6; `adddress` has three d's). */
export const QuoteResponse = namedObject('QuoteResponse', {
  quote: z.strictObject({
    id: Uuid,
    user_id: Uuid,
    deposit_token: z.string().meta({ example: 'usdc' }),
    deposit_token_chain: z.string().meta({ example: 'ethereum' }),
    deposit_token_amount: z.number(),
    fees: z.number(),
    expiry: z.number().int().meta({ description: 'Epoch seconds' }),
    executed: z.boolean(),
    rates: z.record(z.string(), z.number()),
    refunds: z.array(QuoteRefund),
  }),
  deposit_address: z.strictObject({ adddress: z.string(), blockchain: z.string() }),
  crypto_transfer: z
    .strictObject({ tx_id: z.string(), blockchain: z.string(), network: z.string() })
    .nullable(),
  offramps: z.array(Offramp),
});

/** The price of one payout (research §7, Quote#Rate); nothing is stored. */
export const QuoteRateResponse = namedObject('QuoteRateResponse', {
  quote: z.strictObject({
    deposit_token: z.string(),
    deposit_token_chain: z.string(),
    deposit_token_amount: z.number(),
    fiat_amount: z.number(),
    fiat_currency: z.string(),
    currency_pair: z.string().meta({ example: 'usdcusd' }),
    fees: z.number(),
    rails: z.string(),
    rate: z.string().meta({ example: '0.92', description: 'Fiat per token, exact decimal' }),
    expiry: z.number().int(),
    executed: z.literal(false),
  }),
});

/** Request bodies of onramps, quotes and offramps (spec 2.6, 2.7, 4.10-4.12; research §7, §9). */
import { z } from 'zod';
import { decimalInput, EvmAddress, HttpUrl, Uuid } from './common.ts';

const code = z.string().trim().min(1).max(40).toLowerCase();

/** `POST /users/:id/onramps`. */
export const OnrampCreateBody = z
  .object({
    onramp: z
      .object({
        destination_amount: decimalInput(2),
        crypto_currency: code,
        crypto_rails: code,
        destination_address: EvmAddress,
        fiat_currency: code,
        fiat_rails: code,
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'OnrampCreateBody' });

/** `POST /sandbox/users/:id/onramps/:oid/deposit`: the bank partner's deposit notification. */
export const SandboxDepositBody = z.object({ amount: decimalInput(2) }).strict();

/** `POST /users/:id/quotes`. */
export const QuoteCreateBody = z
  .object({ quote: z.object({ deposit_token: code, deposit_token_chain: code }).strict() })
  .strict()
  .meta({ id: 'QuoteCreateBody' });

/** `POST /users/:id/quote/rate`: a one-payout price from either side (exactly one amount). */
export const QuoteRateBody = z
  .object({
    quote: z
      .object({
        deposit_token: code,
        deposit_token_chain: code,
        fiat_currency: code,
        rails: code.nullable().optional(),
        deposit_token_amount: decimalInput(18).optional(),
        fiat_amount: decimalInput(2).optional(),
      })
      .strict()
      .superRefine((q, ctx) => {
        if ((q.deposit_token_amount === undefined) === (q.fiat_amount === undefined)) {
          ctx.addIssue({
            code: 'custom',
            path: [q.fiat_amount === undefined ? 'fiat_amount' : 'deposit_token_amount'],
            message: 'give exactly one of deposit_token_amount and fiat_amount',
          });
        }
      }),
  })
  .strict()
  .meta({ id: 'QuoteRateBody' });

/** `POST /users/:id/quotes/:qid/execute`. */
export const QuoteExecuteBody = z
  .object({
    quote: z
      .object({
        crypto_transfer: z
          .object({
            tx_id: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash'),
            blockchain: code,
            network: code,
          })
          .strict(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'QuoteExecuteBody' });

/** One offramp of `POST /users/:id/quotes/:qid/offramps`. */
export const OfframpInput = z
  .object({
    payment_detail_id: Uuid,
    destination_amount: decimalInput(2),
    destination_currency: code,
    rails: code.optional(),
    reference: z.string().trim().max(140).nullable().optional(),
    supporting_document_attributes: z.object({ submitted_url: HttpUrl }).strict().nullable().optional(),
    supporting_document_url: HttpUrl.nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .strict();

/** `POST /users/:id/quotes/:qid/offramps`. */
export const OfframpsCreateBody = z
  .object({ offramps: z.array(OfframpInput).min(1).max(50) })
  .strict()
  .meta({ id: 'OfframpsCreateBody' });

/** `PATCH /users/:id/quotes/:qid/offramps/:oid`: only the reference changes. */
export const OfframpUpdateBody = z
  .object({ offramp: z.object({ reference: z.string().trim().max(140).nullable() }).strict() })
  .strict()
  .meta({ id: 'OfframpUpdateBody' });

/** One parsed offramp of a create request. */
export type OfframpInputValue = z.output<typeof OfframpInput>;

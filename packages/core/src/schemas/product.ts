/** Product: a merchant's checkout configuration (spec 2.1, 4.1-4.3). */
import { z } from 'zod';
import { blockchains, networks, type TokenInfo } from '../chains.ts';
import { displayText } from '../displayText.ts';
import { decimalInput, HttpUrl, namedObject, Timestamp, Uuid } from './common.ts';

/** Custom fields a product may ask the shopper for. */
export const customFieldNames = ['full_name', 'reference', 'referrer', 'company', 'job_title'] as const;

/** Token of a product (2.2). */
const Token = namedObject('Token', {
  id: Uuid,
  symbol: z.string(),
  address: z.string(),
  name: z.string(),
  decimal_count: z.number().int(),
  blockchain: z.string(),
  network: z.string(),
});

/** Token inside a Resolved Payment: the Token without its id. */
export const PaymentToken = Token.omit({ id: true }).meta({ id: 'PaymentToken' });
export type PaymentToken = z.infer<typeof PaymentToken>;

/** A registry token as the wire and the stored records name it. */
export function wireTokenOf(t: TokenInfo): PaymentToken {
  return {
    symbol: t.symbol,
    address: t.address,
    name: t.name,
    decimal_count: t.decimals,
    blockchain: t.blockchain,
    network: t.network,
  };
}

const TokenInput = z.strictObject({
  blockchain: z.enum(blockchains),
  network: z.enum(networks),
  address: z.string().min(1).max(64).meta({
    description:
      'Exactly (case-sensitive) one of the token contracts the service runs on this blockchain and network; a 422 lists them',
  }),
});

/** Upper bound of `expires_in_minutes` (one year); the spec sets only the minimum of 5. */
const maxExpiresInMinutes = 525_600;

/** `product` of POST /api/v1/products. Cross-field rules are checked in `superRefine`. */
export const ProductCreateInput = z
  .strictObject({
    name: displayText(z.string().trim().min(1).max(200)),
    email: z.email().max(254),
    send_webhook: z.boolean().default(false),
    webhook_url: z.union([HttpUrl, z.literal(''), z.null()]).optional(),
    send_email: z.boolean().default(false),
    email_body: z.union([displayText(z.string().max(10_000), { multiline: true }), z.null()]).optional(),
    success_url: z.union([HttpUrl, z.literal(''), z.null()]).optional(),
    failure_url: z.union([HttpUrl, z.literal(''), z.null()]).optional(),
    custom_fields: z
      .array(z.enum(customFieldNames))
      .refine((a) => new Set(a).size === a.length, { message: 'must not repeat a field' })
      .default([]),
    active: z.boolean().default(false),
    expires_in_minutes: z.union([z.number().int().min(5).max(maxExpiresInMinutes), z.null()]).optional(),
    tax_rate: decimalInput(4)
      .refine((v) => Number(v) <= 100, { message: 'must be a percentage between 0 and 100' })
      .default('0'),
    swappable: z.boolean().default(true),
    open_amount: z.boolean().default(false),
    token: TokenInput,
  })
  .superRefine((p, ctx) => {
    if (p.send_webhook && !p.webhook_url) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhook_url'],
        message: 'is required when send_webhook is true',
      });
    }
    if (p.send_email && !p.email_body?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['email_body'], message: 'is required when send_email is true' });
    }
  });
export type ProductCreateInput = z.infer<typeof ProductCreateInput>;

export const ProductCreateBody = namedObject('ProductCreateBody', { product: ProductCreateInput });

/** `product` of PATCH /api/v1/products/:id: only `active`, and it is required. */
export const ProductUpdateBody = namedObject('ProductUpdateBody', {
  product: z.strictObject({ active: z.boolean() }),
});

const productFields = {
  id: Uuid,
  address_id: Uuid,
  slug: z.string(),
  email: z.string(),
  address: z.string(),
  name: z.string(),
  send_email: z.boolean(),
  email_body: z.string(),
  send_webhook: z.boolean(),
  webhook_url: z.string().nullable(),
  success_url: z.string(),
  failure_url: z.string(),
  active: z.boolean(),
  verified_address: z.boolean(),
  tax_rate: z.number(),
  swappable: z.boolean(),
  open_amount: z.boolean(),
  tokens: z.array(Token),
  custom_fields: z.array(z.string()),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** Product as returned by create and list (2.1). */
export const Product = z.strictObject(productFields).meta({ id: 'Product' });
export type Product = z.infer<typeof Product>;

/** Product as returned by PATCH: without `verified_address` (2.1). */
export const UpdatedProduct = Product.omit({ verified_address: true }).meta({ id: 'UpdatedProduct' });
export type UpdatedProduct = z.infer<typeof UpdatedProduct>;

export const ProductResponse = namedObject('ProductResponse', { product: Product });
export const UpdatedProductResponse = namedObject('UpdatedProductResponse', { product: UpdatedProduct });
export const ProductListResponse = namedObject('ProductList', { products: z.array(Product) });

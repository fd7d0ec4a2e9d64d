import { describe, expect, it } from 'vitest';
import { fieldErrors, safeParseReporting } from '../zodErrors.ts';
import { ProductCreateBody, ProductUpdateBody } from './product.ts';

const token = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const minimal = { name: 'Shop', email: 'owner@example.com', token };

function errorsOf(product: unknown) {
  const parsed = safeParseReporting(ProductCreateBody, { product });
  return parsed.success ? [] : fieldErrors(parsed.error);
}
function paths(product: unknown) {
  return errorsOf(product).map((e) => e.path);
}

describe('ProductCreateBody', () => {
  it('fills the documented defaults', () => {
    const parsed = ProductCreateBody.parse({ product: minimal });
    expect(parsed.product).toMatchObject({
      active: false,
      send_webhook: false,
      send_email: false,
      swappable: true,
      open_amount: false,
      tax_rate: '0',
      custom_fields: [],
    });
    expect(parsed.product.expires_in_minutes).toBeUndefined();
  });

  it.each(['name', 'email', 'token'])('requires %s', (field) => {
    const { [field as keyof typeof minimal]: _removed, ...rest } = minimal;
    expect(errorsOf(rest)).toContainEqual({ path: `product.${field}`, message: 'is required' });
  });

  it.each(['blockchain', 'network', 'address'])('requires token.%s', (field) => {
    const { [field as keyof typeof token]: _removed, ...rest } = token;
    expect(paths({ ...minimal, token: rest })).toContain(`product.token.${field}`);
  });

  it('refuses a blank name and a malformed e-mail', () => {
    expect(paths({ ...minimal, name: '   ' })).toEqual(['product.name']);
    expect(errorsOf({ ...minimal, email: 'nope' })).toEqual([
      { path: 'product.email', message: 'must be a valid e-mail address' },
    ]);
  });

  it('requires webhook_url when send_webhook is true, and only http(s) URLs', () => {
    expect(errorsOf({ ...minimal, send_webhook: true })).toEqual([
      { path: 'product.webhook_url', message: 'is required when send_webhook is true' },
    ]);
    expect(paths({ ...minimal, send_webhook: true, webhook_url: 'ftp://x.example/hook' })).toEqual([
      'product.webhook_url',
    ]);
    expect(paths({ ...minimal, send_webhook: true, webhook_url: 'not a url' })).toEqual([
      'product.webhook_url',
    ]);
    expect(paths({ ...minimal, send_webhook: true, webhook_url: 'https://shop.example/hook' })).toEqual([]);
    expect(paths({ ...minimal, send_webhook: false, webhook_url: 'https://shop.example/hook' })).toEqual([]);
  });

  it('requires a non-blank email_body when send_email is true', () => {
    expect(errorsOf({ ...minimal, send_email: true })).toEqual([
      { path: 'product.email_body', message: 'is required when send_email is true' },
    ]);
    expect(paths({ ...minimal, send_email: true, email_body: '  ' })).toEqual(['product.email_body']);
    expect(paths({ ...minimal, send_email: true, email_body: 'Thanks!' })).toEqual([]);
  });

  it('checks success_url and failure_url are http(s) URLs when given', () => {
    expect(
      paths({ ...minimal, success_url: 'javascript:alert(1)', failure_url: 'https://ok.example' }),
    ).toEqual(['product.success_url']);
    expect(paths({ ...minimal, success_url: '' })).toEqual([]);
  });

  it('accepts only the five custom field names, each once', () => {
    expect(
      paths({ ...minimal, custom_fields: ['full_name', 'reference', 'referrer', 'company', 'job_title'] }),
    ).toEqual([]);
    expect(paths({ ...minimal, custom_fields: ['phone'] })).toEqual(['product.custom_fields.0']);
    expect(errorsOf({ ...minimal, custom_fields: ['company', 'company'] })).toEqual([
      { path: 'product.custom_fields', message: 'must not repeat a field' },
    ]);
    expect(paths({ ...minimal, custom_fields: 'company' })).toEqual(['product.custom_fields']);
  });

  it('requires expires_in_minutes to be an integer of at least 5', () => {
    expect(paths({ ...minimal, expires_in_minutes: 5 })).toEqual([]);
    expect(errorsOf({ ...minimal, expires_in_minutes: 4 })).toEqual([
      { path: 'product.expires_in_minutes', message: 'must be greater than or equal to 5' },
    ]);
    expect(paths({ ...minimal, expires_in_minutes: 7.5 })).toEqual(['product.expires_in_minutes']);
    expect(paths({ ...minimal, expires_in_minutes: '10' })).toEqual(['product.expires_in_minutes']);
  });

  it('takes tax_rate as a non-negative decimal, kept exact', () => {
    expect(ProductCreateBody.parse({ product: { ...minimal, tax_rate: 0.07 } }).product.tax_rate).toBe(
      '0.07',
    );
    expect(ProductCreateBody.parse({ product: { ...minimal, tax_rate: '8.25' } }).product.tax_rate).toBe(
      '8.25',
    );
    expect(paths({ ...minimal, tax_rate: -1 })).toEqual(['product.tax_rate']);
    expect(paths({ ...minimal, tax_rate: 'ten' })).toEqual(['product.tax_rate']);
    expect(paths({ ...minimal, tax_rate: 100.5 })).toEqual(['product.tax_rate']);
    expect(paths({ ...minimal, tax_rate: 0.00001 })).toEqual(['product.tax_rate']);
  });

  it('limits token.blockchain and token.network to the allowed values', () => {
    expect(paths({ ...minimal, token: { ...token, blockchain: 'solana' } })).toEqual([
      'product.token.blockchain',
    ]);
    expect(paths({ ...minimal, token: { ...token, network: 'goerli' } })).toEqual(['product.token.network']);
  });

  it('refuses wrong types for booleans', () => {
    for (const field of ['active', 'send_webhook', 'send_email', 'swappable', 'open_amount']) {
      expect(errorsOf({ ...minimal, [field]: 'true' })).toEqual([
        { path: `product.${field}`, message: 'must be a boolean' },
      ]);
    }
  });

  it('names unknown fields, at every level', () => {
    expect(errorsOf({ ...minimal, price: 10 })).toEqual([
      { path: 'product.price', message: 'is not a known field' },
    ]);
    expect(paths({ ...minimal, token: { ...token, symbol: 'USDC' } })).toEqual(['product.token.symbol']);
    expect(ProductCreateBody.safeParse({ product: minimal, extra: 1 }).success).toBe(false);
  });

  it('lists every problem at once', () => {
    expect(paths({ email: 'x', send_email: true, expires_in_minutes: 1 }).sort()).toEqual(
      ['product.email', 'product.expires_in_minutes', 'product.name', 'product.token'].sort(),
    );
  });
});

describe('ProductUpdateBody', () => {
  it('requires active as a boolean and nothing else', () => {
    expect(ProductUpdateBody.safeParse({ product: { active: true } }).success).toBe(true);
    expect(ProductUpdateBody.safeParse({ product: {} }).success).toBe(false);
    expect(ProductUpdateBody.safeParse({ product: { active: 'yes' } }).success).toBe(false);
    expect(ProductUpdateBody.safeParse({ product: { active: true, name: 'x' } }).success).toBe(false);
  });
});

/**
 * Products (spec 4.1): what a checkout sells. A product names one accepted token, exactly as the token
 * registry lists it, and gets its own signing secret, sealed. The demo shop's product and its visits'
 * expected payments are made here too, through the same steps as a merchant's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ApiError,
  type ExpectedPaymentCreateBody,
  isTestToken,
  ProductCreateInput,
  recordInvalid,
  type TokenInfo,
  type TokenRegistry,
} from '@checkout/core';
import {
  createApiKey,
  type Database,
  type ExpectedPaymentRow,
  findProductBySlug,
  findProductSlugByName,
  findWalletByAddress,
  insertExpectedPayment,
  insertProduct,
  type ProductRow,
} from '@checkout/db';
import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import type { z } from 'zod';
import type { WorkerResources } from '../resources.ts';

/** The accepted token named by `product.token`, or a 422 saying which part is wrong. */
function resolveProductToken(tokens: TokenRegistry, input: ProductCreateInput['token']): TokenInfo {
  // The spec's test network is BNB Smart Chain's; Ethereum's and Polygon's are there when the service runs them.
  if (input.network === 'testnet' && tokens.tokensOf(input.blockchain, 'testnet').length === 0) {
    throw recordInvalid([
      {
        path: 'product.token.network',
        message: `testnet is only allowed on binance-smart-chain with the test BUSD contract (this service runs no ${input.blockchain} test network)`,
      },
    ]);
  }
  const token = tokens.find(input.blockchain, input.network, input.address);
  if (!token) {
    const accepted = tokens
      .tokensOf(input.blockchain, input.network)
      .map((t) => `${t.symbol} ${t.address}`)
      .join(', ');
    throw recordInvalid([
      {
        path: 'product.token.address',
        message:
          input.network === 'testnet'
            ? `must be the test BUSD contract (${accepted})`
            : `must be exactly (case-sensitive) one of the USDC, DAI, USDT or BUSD contracts on ${input.blockchain}: ${accepted}`,
      },
    ]);
  }
  return token;
}

/** What products are made with: the token registry and the box that seals each product's secret. */
export type ProductDeps = Pick<WorkerResources, 'tokens' | 'secrets'>;

/** Writes a product of the merchant's wallet selling in the token it names. */
export async function createProduct(
  db: Kysely<Database>,
  deps: ProductDeps,
  input: { merchantId: string; addressId: string; testOnly?: boolean; product: ProductCreateInput },
): Promise<ProductRow> {
  const { product } = input;
  const token = resolveProductToken(deps.tokens, product.token);
  if (input.testOnly && !isTestToken(token)) {
    throw new ApiError('forbidden', 'A test key makes products on test networks only', {
      errors: [{ path: 'product.token', message: 'is a live network’s token: use a live key' }],
    });
  }
  const now = new Date();
  return insertProduct(db, {
    id: randomUUID(),
    merchant_id: input.merchantId,
    address_id: input.addressId,
    name: product.name,
    email: product.email,
    send_email: product.send_email,
    email_body: product.email_body ?? '',
    send_webhook: product.send_webhook,
    webhook_url: product.webhook_url || null,
    success_url: product.success_url ?? '',
    failure_url: product.failure_url ?? '',
    active: product.active,
    tax_rate: product.tax_rate,
    swappable: product.swappable,
    open_amount: product.open_amount,
    expires_in_minutes: product.expires_in_minutes ?? null,
    custom_fields: JSON.stringify(product.custom_fields),
    token_blockchain: token.blockchain,
    token_network: token.network,
    token_address: token.address,
    token_symbol: token.symbol,
    token_name: token.name,
    token_decimals: token.decimals,
    chain_id: token.chainId,
    secret_ciphertext: deps.secrets.seal(`ps_${randomBytes(24).toString('base64url')}`),
    created_at: now,
    updated_at: now,
  });
}

/** An amount the merchant's server sets for one checkout of an active product, with its metadata and e-mail. */
export async function createExpectedPayment(
  db: Kysely<Database>,
  product: Pick<ProductRow, 'id' | 'merchant_id' | 'active'>,
  input: z.infer<typeof ExpectedPaymentCreateBody>,
): Promise<ExpectedPaymentRow> {
  if (!product.active) {
    throw new ApiError('product_inactive', 'The product is not active: it takes no new checkouts');
  }
  return insertExpectedPayment(db, {
    id: randomUUID(),
    merchant_id: product.merchant_id,
    product_id: product.id,
    dollar_amount: input.dollar_amount,
    metadata: input.metadata ?? null,
    customer_email: input.customer_email ?? null,
    source: 'merchant',
  });
}

/** The demo shop's product: a coffee subscription in the test BUSD, with a 30-minute timer. */
const demoProductName = 'Demo coffee subscription';

/** What each demo visit orders. */
export const demoDollarAmount = '12.50';

/**
 * One demo visit's order: the wallet's demo product (made, with the wallet's API key, on the first visit)
 * and a new expected payment of {@link demoDollarAmount}, tagged `demo`.
 */
export async function openDemoOrder(
  db: Kysely<Database>,
  deps: ProductDeps,
  walletAddress: string,
): Promise<{ slug: string; expected: ExpectedPaymentRow }> {
  const address = getAddress(walletAddress);
  let wallet = await findWalletByAddress(db, address);
  if (!wallet) {
    const created = await createApiKey(db, { address, label: 'demo shop' });
    wallet = await findWalletByAddress(db, created.address);
    if (!wallet) throw new Error('the demo wallet was not stored');
  }
  const existing = await findProductSlugByName(db, { addressId: wallet.id, name: demoProductName });
  const found = existing ? await findProductBySlug(db, existing) : undefined;
  let product: Pick<ProductRow, 'id' | 'slug' | 'merchant_id' | 'active'>;
  if (found) {
    product = found;
  } else {
    const testTokens = deps.tokens.tokensOf('binance-smart-chain', 'testnet');
    const token = testTokens.find((t) => t.symbol === 'BUSD') ?? testTokens[0];
    if (!token) throw new Error('no test token is configured');
    product = await createProduct(db, deps, {
      merchantId: wallet.merchant_id,
      addressId: wallet.id,
      product: ProductCreateInput.parse({
        name: demoProductName,
        email: 'merchant@example.com',
        active: true,
        tax_rate: '20',
        expires_in_minutes: 30,
        custom_fields: ['full_name'],
        token: { blockchain: token.blockchain, network: token.network, address: token.address },
      }),
    });
  }
  const expected = await createExpectedPayment(db, product, {
    dollar_amount: demoDollarAmount,
    metadata: { demo: true },
  });
  return { slug: product.slug, expected };
}

/** Products API (spec 4.1-4.4) against the real server and database. */
import { Product, ResolvedPayment, tokenId, UpdatedProduct } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const usdc = {
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const productFields = [
  'id',
  'address_id',
  'slug',
  'email',
  'address',
  'name',
  'send_email',
  'email_body',
  'send_webhook',
  'webhook_url',
  'success_url',
  'failure_url',
  'active',
  'verified_address',
  'tax_rate',
  'swappable',
  'open_amount',
  'tokens',
  'custom_fields',
  'created_at',
  'updated_at',
].sort();
const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.skipIf(databaseUnavailable())('products', () => {
  let service: TestService;
  let merchant: TestMerchant;

  beforeAll(async () => {
    service = await startTestService({ temporal: false });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const create = (product: Record<string, unknown>, who: TestMerchant = merchant) =>
    service.request('POST', '/api/v1/products', { headers: who.headers, json: { product } });

  it('creates a product with the documented defaults and exact shape', async () => {
    const res = await create({ name: 'Coffee', email: 'owner@example.com', token: usdc });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['product']);
    const p = res.body.product;
    expect(Object.keys(p).sort()).toEqual(productFields);
    expect(Product.safeParse(p).success).toBe(true);
    expect(p).toMatchObject({
      name: 'Coffee',
      email: 'owner@example.com',
      address: merchant.address,
      address_id: merchant.addressId,
      send_email: false,
      email_body: '',
      send_webhook: false,
      webhook_url: null,
      success_url: '',
      failure_url: '',
      active: false,
      verified_address: false,
      tax_rate: 0,
      swappable: true,
      open_amount: false,
      custom_fields: [],
    });
    expect(p.tokens).toEqual([
      {
        id: tokenId(usdc),
        symbol: 'USDC',
        address: usdc.address,
        name: 'USD Coin',
        decimal_count: 6,
        blockchain: 'ethereum',
        network: 'mainnet',
      },
    ]);
    expect(p.slug).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(p.created_at).toMatch(isoMillis);
    expect(p.updated_at).toMatch(isoMillis);
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('stores every field as given', async () => {
    const res = await create({
      name: 'Conference ticket',
      email: 'billing@example.com',
      send_webhook: true,
      webhook_url: 'https://shop.example/hooks/pay',
      send_email: true,
      email_body: 'Thanks for your order.',
      success_url: 'https://shop.example/ok',
      failure_url: 'https://shop.example/fail',
      custom_fields: ['full_name', 'company'],
      active: true,
      expires_in_minutes: 15,
      tax_rate: 8.25,
      swappable: false,
      open_amount: true,
      token: {
        blockchain: 'polygon',
        network: 'mainnet',
        address: '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({
      send_webhook: true,
      webhook_url: 'https://shop.example/hooks/pay',
      send_email: true,
      email_body: 'Thanks for your order.',
      success_url: 'https://shop.example/ok',
      failure_url: 'https://shop.example/fail',
      custom_fields: ['full_name', 'company'],
      active: true,
      tax_rate: 8.25,
      swappable: false,
      open_amount: true,
    });
    expect(res.body.product.tokens[0]).toMatchObject({
      symbol: 'DAI',
      decimal_count: 18,
      blockchain: 'polygon',
    });
  });

  it('accepts X-ADDRESS in any letter case and returns it checksummed', async () => {
    const res = await create(
      { name: 'Lower', email: 'a@example.com', token: usdc },
      { ...merchant, headers: { ...merchant.headers, 'x-address': merchant.address.toLowerCase() } },
    );
    expect(res.status).toBe(200);
    expect(res.body.product.address).toBe(merchant.address);
  });

  it('enforces the token contract rules', async () => {
    const lower = await create({
      name: 'x',
      email: 'a@example.com',
      token: { ...usdc, address: usdc.address.toLowerCase() },
    });
    expect(lower.status).toBe(422);
    expect(lower.body.errors.map((e: { path: string }) => e.path)).toEqual(['product.token.address']);

    const wrongChain = await create({
      name: 'x',
      email: 'a@example.com',
      token: { ...usdc, blockchain: 'polygon' },
    });
    expect(wrongChain.status).toBe(422);

    const ethTestnet = await create({
      name: 'x',
      email: 'a@example.com',
      token: { ...usdc, network: 'testnet' },
    });
    expect(ethTestnet.status).toBe(422);
    expect(ethTestnet.body.errors[0].path).toBe('product.token.network');

    const bscTestnetMainToken = await create({
      name: 'x',
      email: 'a@example.com',
      token: {
        blockchain: 'binance-smart-chain',
        network: 'testnet',
        address: '0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56',
      },
    });
    expect(bscTestnetMainToken.status).toBe(422);

    const testBusd = await create({
      name: 'Test',
      email: 'a@example.com',
      token: {
        blockchain: 'binance-smart-chain',
        network: 'testnet',
        address: service.deps.config.testnet.testTokenAddress,
      },
    });
    expect(testBusd.status).toBe(200);
    expect(testBusd.body.product.tokens[0]).toMatchObject({
      symbol: 'BUSD',
      network: 'testnet',
      decimal_count: 18,
    });

    for (const [blockchain, address] of [
      ['ethereum', '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
      ['binance-smart-chain', '0x55d398326f99059fF775485246999027B3197955'],
      ['polygon', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'],
    ]) {
      const ok = await create({
        name: 'x',
        email: 'a@example.com',
        token: { blockchain, network: 'mainnet', address },
      });
      expect(ok.status, `${blockchain} ${address}`).toBe(200);
    }
  });

  it('lists only the wallet’s own products, each with verified_address', async () => {
    const other = await service.createMerchant();
    await create({ name: 'Other shop', email: 'o@example.com', token: usdc }, other);
    const res = await service.request('GET', '/api/v1/products', { headers: merchant.headers });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['products']);
    expect(res.body.products.length).toBeGreaterThan(0);
    for (const p of res.body.products) {
      expect(Object.keys(p).sort()).toEqual(productFields);
      expect(p.address).toBe(merchant.address);
      expect(Product.safeParse(p).success).toBe(true);
    }
    expect(res.body.products.map((p: { name: string }) => p.name)).not.toContain('Other shop');
    const otherList = await service.request('GET', '/api/v1/products', { headers: other.headers });
    expect(otherList.body.products.map((p: { name: string }) => p.name)).toEqual(['Other shop']);
  });

  it('PATCH toggles active, on both paths, without verified_address in the response', async () => {
    const created = (await create({ name: 'Toggle', email: 'a@example.com', token: usdc })).body.product;
    const on = await service.request('PATCH', `/api/v1/products/${created.id}`, {
      headers: merchant.headers,
      json: { product: { active: true } },
    });
    expect(on.status).toBe(200);
    expect(on.body.product.active).toBe(true);
    expect(on.body.product).not.toHaveProperty('verified_address');
    expect(Object.keys(on.body.product).sort()).toEqual(
      productFields.filter((f) => f !== 'verified_address'),
    );
    expect(UpdatedProduct.safeParse(on.body.product).success).toBe(true);
    expect(Date.parse(on.body.product.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect(on.body.product.created_at).toBe(created.created_at);

    const off = await service.request('PATCH', `/api/v1/product/${created.id}`, {
      headers: merchant.headers,
      json: { product: { active: false } },
    });
    expect(off.status).toBe(200);
    expect(off.body.product.active).toBe(false);

    const list = await service.request('GET', '/api/v1/products', { headers: merchant.headers });
    expect(list.body.products.find((p: { id: string }) => p.id === created.id).active).toBe(false);
  });

  it('never serves a stale list after a create or an update', async () => {
    const before = (await service.request('GET', '/api/v1/products', { headers: merchant.headers })).body
      .products.length;
    const created = (await create({ name: 'Fresh', email: 'a@example.com', token: usdc })).body.product;
    const after = (await service.request('GET', '/api/v1/products', { headers: merchant.headers })).body
      .products;
    expect(after).toHaveLength(before + 1);
    await service.request('PATCH', `/api/v1/products/${created.id}`, {
      headers: merchant.headers,
      json: { product: { active: true } },
    });
    const again = (await service.request('GET', '/api/v1/products', { headers: merchant.headers })).body
      .products;
    expect(again.find((p: { id: string }) => p.id === created.id).active).toBe(true);
  });

  it('PATCH requires active', async () => {
    const created = (await create({ name: 'NeedsActive', email: 'a@example.com', token: usdc })).body.product;
    const missing = await service.request('PATCH', `/api/v1/products/${created.id}`, {
      headers: merchant.headers,
      json: { product: {} },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ path: 'product.active', message: 'is required' }]);
    const noRoot = await service.request('PATCH', `/api/v1/products/${created.id}`, {
      headers: merchant.headers,
      json: {},
    });
    expect(noRoot.status).toBe(400);
    expect(noRoot.body.error_code).toBe('parameter_missing');
  });

  it('never shows or changes another merchant’s product', async () => {
    const created = (await create({ name: 'Mine', email: 'a@example.com', token: usdc })).body.product;
    const intruder = await service.createMerchant();
    const patch = await service.request('PATCH', `/api/v1/products/${created.id}`, {
      headers: intruder.headers,
      json: { product: { active: true } },
    });
    expect(patch.status).toBe(404);
    expect(patch.body.error_code).toBe('record_not_found');
    const payments = await service.request('GET', `/api/v1/products/${created.id}/resolved_payments`, {
      headers: intruder.headers,
    });
    expect(payments.status).toBe(404);
    const list = await service.request('GET', '/api/v1/products', { headers: merchant.headers });
    expect(list.body.products.find((p: { id: string }) => p.id === created.id).active).toBe(false);
  });

  it('lists resolved payments in the full 2.3 shape', async () => {
    const created = (
      await create({ name: 'Paid', email: 'a@example.com', token: usdc, custom_fields: ['reference'] })
    ).body.product;
    const empty = await service.request('GET', `/api/v1/products/${created.id}/resolved_payments`, {
      headers: merchant.headers,
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ resolved_payments: [] });

    const token = {
      symbol: 'USDC',
      address: usdc.address,
      name: 'USD Coin',
      decimal_count: 6,
      blockchain: 'ethereum',
      network: 'mainnet',
    };
    const id = crypto.randomUUID();
    await service.deps.db.kysely
      .insertInto('resolved_payments')
      .values({
        id,
        product_id: created.id,
        expected_payment_id: crypto.randomUUID(),
        is_test: false,
        dollar_amount: '25.00',
        metadata: JSON.stringify(null),
        user_email: 'shopper@example.com',
        custom_fields: JSON.stringify({ reference: 'INV-7' }),
        chain_id: 1,
        expected_token: JSON.stringify(token),
        received_token: JSON.stringify(token),
        expected_token_amount: '25000000',
        received_token_amount: '24900000',
        amount_difference: '-0.4',
        receiving_address: merchant.address,
        sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        tx_id: `0x${'ab'.repeat(32)}`,
        log_index: 0,
        tx_success: true,
        tx_failure: false,
        swapped: false,
        late: false,
        created_at: new Date('2026-11-22T06:00:00.123Z'),
      })
      .execute();
    const res = await service.request('GET', `/api/v1/products/${created.id}/resolved_payments`, {
      headers: merchant.headers,
    });
    expect(res.status).toBe(200);
    const [payment] = res.body.resolved_payments;
    expect(ResolvedPayment.safeParse(payment).success).toBe(true);
    expect(payment).toEqual({
      is_test: false,
      id,
      product_id: created.id,
      expected_payment_id: payment.expected_payment_id,
      product_secret: expect.stringMatching(/^ps_[\w-]{32}$/),
      slug: created.slug,
      dollar_amount: '25.00',
      metadata: null,
      user: { email: 'shopper@example.com', custom_fields: { reference: 'INV-7' } },
      payment: {
        expected_token: token,
        received_token: token,
        expected_token_amount: '25',
        received_token_amount: '24.9',
        amount_difference: '-0.4',
        exception_status: 'paid_partially',
        receiving_address: merchant.address,
        sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        tx_id: `0x${'ab'.repeat(32)}`,
        tx_success: true,
        tx_failure: false,
        swapped: false,
        refunded_amount: '0',
        sweep_gas_wei: null,
        created_at: '2026-11-22T06:00:00.123Z',
      },
    });
    // The secret is stored encrypted, never in the clear.
    const stored = await service.deps.db.kysely
      .selectFrom('products')
      .select('secret_ciphertext')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_ciphertext).not.toContain(payment.product_secret);
  });
});

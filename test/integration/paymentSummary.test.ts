/**
 * GET /api/v1/payment_summary against the real server and database: the wallet's standing payments summed
 * per chain and token exactly (amounts beyond a float's precision), counted per day, failed, reversed and
 * out-of-window payments left out, test and live apart; each chain watcher's lag as /health reports it; other
 * merchants see none of it.
 */
import { PaymentSummaryResponse } from '@checkout/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const usdc = {
  symbol: 'USDC',
  name: 'USD Coin',
  decimal_count: 6,
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};
const dai = {
  symbol: 'DAI',
  name: 'Dai',
  decimal_count: 18,
  blockchain: 'ethereum',
  network: 'mainnet',
  address: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
};
/** Noon (UTC) of 2026-11-`day`. */
const noon = (day: number) => new Date(Date.UTC(2026, 10, day, 12));

describe.skipIf(databaseUnavailable())('the payment summary of the console home', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let n = 0;

  async function pay(
    productId: string,
    token: typeof usdc,
    units: string,
    at: Date,
    extra: { is_test?: boolean; tx_failure?: boolean; reversed_at?: Date } = {},
  ) {
    n += 1;
    await service.deps.db.kysely
      .insertInto('resolved_payments')
      .values({
        id: crypto.randomUUID(),
        product_id: productId,
        expected_payment_id: crypto.randomUUID(),
        is_test: extra.is_test ?? false,
        dollar_amount: '1.00',
        metadata: JSON.stringify(null),
        user_email: `shopper${n}@example.com`,
        custom_fields: JSON.stringify({}),
        chain_id: 1,
        expected_token: JSON.stringify(token),
        received_token: JSON.stringify(token),
        expected_token_amount: units,
        received_token_amount: units,
        amount_difference: '0',
        receiving_address: merchant.address,
        sender_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        tx_id: `0x${n.toString(16).padStart(64, '0')}`,
        log_index: 0,
        tx_success: !extra.tx_failure,
        tx_failure: extra.tx_failure ?? false,
        swapped: false,
        late: false,
        reversed_at: extra.reversed_at ?? null,
        created_at: at,
      })
      .execute();
  }

  const summary = (query: string, who: TestMerchant = merchant) =>
    service.request('GET', `/api/v1/payment_summary${query}`, { headers: who.headers });

  beforeAll(async () => {
    // A chain whose endpoint is never called here: its watcher's position is written below.
    service = await startTestService({
      temporal: false,
      env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: 'http://127.0.0.1:9' },
    });
    merchant = await service.createMerchant();
    other = await service.createMerchant();
    const product = async (token: typeof usdc) =>
      (
        await service.request('POST', '/api/v1/products', {
          headers: merchant.headers,
          json: {
            product: {
              name: token.symbol,
              email: 'owner@example.com',
              token: { blockchain: token.blockchain, network: token.network, address: token.address },
            },
          },
        })
      ).body.product.id as string;
    const [usdcProduct, daiProduct] = [await product(usdc), await product(dai)];
    await pay(usdcProduct, usdc, '100000', noon(2)); // 0.1
    await pay(usdcProduct, usdc, '200000', noon(2)); // 0.2
    await pay(usdcProduct, usdc, '25000000', noon(3), { is_test: true });
    await pay(usdcProduct, usdc, '9000000', noon(3), { tx_failure: true });
    await pay(usdcProduct, usdc, '8000000', noon(3), { reversed_at: noon(4) });
    await pay(usdcProduct, usdc, '7000000', noon(20)); // after the window
    // 2^53 + 1 wei-like units and a fraction a float cannot hold.
    await pay(daiProduct, dai, '9007199254740993000000000000000001', noon(4));
    await pay(daiProduct, dai, '1', noon(4));
    const chainId = service.deps.config.chains[0]!.chainId;
    await service.deps.db.kysely
      .insertInto('chain_watch')
      .values({
        chain_id: chainId,
        next_block: '101',
        last_block_hash: null,
        head_block: '150',
        updated_at: new Date(),
      })
      .execute();
    await service.deps.db.kysely
      .insertInto('chain_watch_status')
      .values({ chain_id: chainId, head_block: '150', head_at: new Date(), read_to_block: '100' })
      .execute();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('sums each token exactly, counts per day, and leaves out failed, reversed and later payments', async () => {
    const since = noon(1).toISOString();
    const until = noon(10).toISOString();
    const res = await summary(`?since=${since}&until=${until}`);
    expect(res.status, res.text).toBe(200);
    const body = PaymentSummaryResponse.parse(res.body).payment_summary;
    expect(body).toMatchObject({ since, until, payments: 5 });
    expect(body.volumes).toEqual([
      {
        chain_id: 1,
        blockchain: 'ethereum',
        network: 'mainnet',
        token_address: dai.address,
        symbol: 'DAI',
        amount: '9007199254740993.000000000000000002',
        payments: 2,
      },
      {
        chain_id: 1,
        blockchain: 'ethereum',
        network: 'mainnet',
        token_address: usdc.address,
        symbol: 'USDC',
        amount: '25.3',
        payments: 3,
      },
    ]);
    expect(body.days).toEqual([
      { day: '2026-11-02', payments: 2 },
      { day: '2026-11-03', payments: 1 },
      { day: '2026-11-04', payments: 2 },
    ]);
    const live = PaymentSummaryResponse.parse(
      (await summary(`?since=${since}&until=${until}&mode=live`)).body,
    );
    expect(live.payment_summary.volumes.map((v) => [v.symbol, v.amount])).toEqual([
      ['DAI', '9007199254740993.000000000000000002'],
      ['USDC', '0.3'],
    ]);
  });

  it("reports each chain watcher's lag as /health does", async () => {
    const body = PaymentSummaryResponse.parse((await summary('')).body).payment_summary;
    const health = await service.request('GET', '/health');
    const chainId = service.deps.config.chains[0]!.chainId;
    const watcher = body.chain_watchers.find((w) => w.chain_id === chainId);
    expect(watcher).toMatchObject({ lag_blocks: 50, lag_estimated: false });
    const reported = (health.body.chain_watchers as Array<{ chain_id: number; status: string }>).find(
      (w) => w.chain_id === chainId,
    );
    expect(watcher?.status).toBe(reported?.status);
    expect(body.chain_watchers.map((w) => w.chain_id)).toEqual(
      service.deps.config.chains.map((c) => c.chainId),
    );
    // By default the last 30 days: none of the November payments above.
    expect(Date.parse(body.until) - Date.parse(body.since)).toBe(30 * 86_400_000);
  });

  it('shows other merchants nothing, and refuses a key without payments:read naming it', async () => {
    const theirs = PaymentSummaryResponse.parse(
      (await summary(`?since=${noon(1).toISOString()}&until=${noon(10).toISOString()}`, other)).body,
    );
    expect(theirs.payment_summary).toMatchObject({ payments: 0, volumes: [], days: [] });
    const made = await service.request('POST', '/api/v1/api_keys', {
      headers: merchant.headers,
      json: { name: 'products only', scopes: ['products:read'] },
    });
    const refused = await service.request('GET', '/api/v1/payment_summary', {
      headers: { authorization: `Bearer ${made.body.key}`, 'x-address': merchant.address },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([{ path: 'scope', message: 'payments:read is required' }]);
    const bad = await summary('?since=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['since']);
  });
});

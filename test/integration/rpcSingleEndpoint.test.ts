/**
 * One RPC endpoint, 30 % of whose calls are answered 429 with `Retry-After`: with no other endpoint to turn
 * to, the service waits out each rest instead of failing the call, so payments resolve while the fault lasts
 * — closed tabs (payer known, no hash) and phone payments (exact amounts) alike — and the metrics say
 * `rate_limited`.
 */
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { type RpcProxy, startRpcProxy } from '../support/rpc/rpcProxy.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { waitFor, waitForBlockRead } from '../support/waitFor.ts';

describe.skipIf(databaseUnavailable())('the chain watcher with one rate-limited RPC endpoint', () => {
  let chain: TestChain;
  let proxy: RpcProxy;
  let service: TestService;
  let merchant: TestMerchant;
  let slug: string;

  beforeAll(async () => {
    chain = await startTestChain();
    proxy = await startRpcProxy(chain.chain.rpcUrl);
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: proxy.url,
        CHAIN_POLL_INTERVAL_MS: '200',
        CHECKOUT_SCAN_INTERVAL_MS: '500',
        BLOCK_TIME_MS_BINANCE_SMART_CHAIN_TESTNET: '250',
        PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
      },
    });
    merchant = await service.createMerchant();
    const product = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Beans, one provider',
          email: 'merchant@example.com',
          active: true,
          open_amount: true,
          send_email: false,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd() },
        },
      },
    });
    expect(product.status, product.text).toBe(200);
    slug = product.body.product.slug;
  });
  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await chain?.stop();
  });

  const busd = () => chain.deployment.tokens.BUSD.address;
  const open = async (body: Record<string, unknown>) => {
    const res = await service.request('POST', `/api/v1/checkout/${slug}/sessions`, {
      json: { email: 'shopper@example.com', custom_fields: {}, token_address: busd(), ...body },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.session as { id: string; expected_token_amount: string };
  };

  it('resolves closed tabs and phone payments while 30 % of calls are answered 429', async () => {
    const sessions = [
      {
        payer: 1,
        session: await open({ dollar_amount: '3.01', sender_address: chain.deployment.shoppers[1]!.address }),
      },
      {
        payer: 2,
        session: await open({ dollar_amount: '3.02', sender_address: chain.deployment.shoppers[2]!.address }),
      },
      { payer: 3, session: await open({ dollar_amount: '3.03' }) },
      { payer: 3, session: await open({ dollar_amount: '3.04' }) },
    ];
    await waitForBlockRead(service.deps.db.kysely, 97, await chain.publicClient.getBlockNumber());
    proxy.set({ rateLimitShare: { share: 0.3, retryAfterSeconds: 2 } });
    const paid: string[] = [];
    for (const { payer, session } of sessions) {
      paid.push(
        await chain.transfer(
          payer,
          busd(),
          merchant.address as Address,
          parseUnits(session.expected_token_amount, 18),
        ),
      );
    }
    // Resolved while the fault still holds: the proxy keeps answering 429s until the test ends.
    const resolved = await Promise.all(
      sessions.map(({ session }) =>
        waitFor(
          async () =>
            (await service.request('GET', `/api/v1/checkout/sessions/${session.id}`)).body.session as {
              status: string;
              tx_hash: string | null;
            },
          (s) => s.status === 'resolved',
          `session ${session.id} under the fault`,
          60_000,
        ),
      ),
    );
    expect(resolved.map((s) => s.tx_hash)).toEqual(paid.map((h) => h.toLowerCase()));
    expect(proxy.stats().refused.rate ?? 0, 'the endpoint never answered 429').toBeGreaterThan(0);
    // The metrics name what the endpoint did: rate limited, not down.
    const metrics = (await service.request('GET', '/metrics')).text;
    const limited = metrics
      .split('\n')
      .filter((l) => l.startsWith('checkout_chain_rpc_errors_total{') && l.includes('kind="rate_limited"'))
      .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    expect(limited).toBeGreaterThan(0);
    proxy.set({});
  }, 120_000);
});

/**
 * Every chain the spec names works in the sandbox: a local chain for each test network (BNB Smart Chain
 * testnet 97, Ethereum Sepolia 11155111, Polygon Amoy 80002), and on each a product paid through a checkout
 * session, an onramp delivering USDC, and a quote whose offramp reaches `fiat_sent`.
 */
import { erc20Abi } from '@checkout/chain';
import { testNetworks } from '@checkout/core';
import { type Address, parseUnits } from 'viem';
import { english, generateMnemonic } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createPayoutReadyUser, expectError } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const rpcEnv: Record<(typeof testNetworks)[number]['blockchain'], string> = {
  'binance-smart-chain': 'RPC_URL_BINANCE_SMART_CHAIN_TESTNET',
  ethereum: 'RPC_URL_ETHEREUM_TESTNET',
  polygon: 'RPC_URL_POLYGON_TESTNET',
};

describe.skipIf(databaseUnavailable())('test networks of every chain', () => {
  const chains = new Map<string, TestChain>();
  let service: TestService;
  let merchant: TestMerchant;
  let userId: string;
  let detail: string;

  beforeAll(async () => {
    const started = await Promise.all(testNetworks.map((n) => startTestChain(n.chainId)));
    for (const [i, n] of testNetworks.entries()) chains.set(n.blockchain, started[i]!);
    service = await startTestService({
      env: {
        ...Object.fromEntries(
          testNetworks.flatMap((n) => {
            const url = chains.get(n.blockchain)!.chain.rpcUrl;
            // As `npm start` does: the service and shoppers' wallets use the same local chain.
            return [
              [rpcEnv[n.blockchain], url],
              [`PUBLIC_${rpcEnv[n.blockchain]}`, url],
            ];
          }),
        ),
        PAYOUT_SANDBOX_DELAY_MS: '100',
        // Deposit addresses of their own, away from the dev accounts' traffic.
        DEPOSIT_MNEMONIC: generateMnemonic(english),
      },
    });
    merchant = await service.createMerchant();
    ({ userId, detail } = await createPayoutReadyUser(service, merchant));
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await Promise.all([...chains.values()].map((c) => c.stop()));
  });

  const poll = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what} stayed ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const balanceOf = (chain: TestChain, token: Address, owner: string) =>
    chain.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner as Address],
    });

  describe.each(testNetworks)('$name ($chainId)', ({ blockchain, chainId }) => {
    const chain = () => chains.get(blockchain)!;

    it('takes a test payment for a product on its test BUSD, resolved as is_test', async () => {
      const busd = chain().deployment.tokens.BUSD.address;
      const created = await service.request('POST', '/api/v1/products', {
        headers: merchant.headers,
        json: {
          product: {
            name: `Beans on ${blockchain}`,
            email: 'merchant@example.com',
            active: true,
            token: { blockchain, network: 'testnet', address: busd },
          },
        },
      });
      expect(created.status, created.text).toBe(200);
      const product = created.body.product;
      expect(product.tokens).toEqual([
        expect.objectContaining({ blockchain, network: 'testnet', address: busd, symbol: 'BUSD' }),
      ]);

      const view = await service.request('GET', `/api/v1/checkout/${product.slug}`);
      expect(view.body.checkout).toMatchObject({
        chain_id: chainId,
        blockchain,
        network: 'testnet',
        is_test: true,
      });
      expect(view.body.checkout.rpc_url).toBe(chain().chain.rpcUrl);

      const expected = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
        headers: merchant.headers,
        json: { dollar_amount: '3.25' },
      });
      expect(expected.status, expected.text).toBe(200);
      const shopper = chain().deployment.shoppers[0]!.address;
      const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
        json: {
          expected_payment_id: expected.body.expected_payment.id,
          email: 'shopper@example.com',
          custom_fields: {},
          sender_address: shopper,
          token_address: busd,
        },
      });
      expect(opened.status, opened.text).toBe(200);
      const tx = await chain().transfer(0, busd, merchant.address as Address, parseUnits('3.25', 18));
      const submitted = await service.request(
        'POST',
        `/api/v1/checkout/sessions/${opened.body.session.id}/transactions`,
        {
          json: { tx_hash: tx },
        },
      );
      expect(submitted.status, submitted.text).toBe(200);
      await poll(
        async () =>
          (await service.request('GET', `/api/v1/checkout/sessions/${opened.body.session.id}`)).body.session,
        (s) => s.status === 'resolved',
        'session',
      );
      const payments = await service.request('GET', `/api/v1/products/${product.id}/resolved_payments`, {
        headers: merchant.headers,
      });
      expect(payments.body.resolved_payments).toHaveLength(1);
      expect(payments.body.resolved_payments[0]).toMatchObject({
        is_test: true,
        payment: {
          tx_id: tx.toLowerCase(),
          received_token_amount: '3.25',
          expected_token: { blockchain, network: 'testnet', address: busd },
        },
      });
    });

    it('delivers an onramp in USDC on its chain', async () => {
      const destination = randomAddress();
      const created = await service.request('POST', `/users/${userId}/onramps`, {
        headers: authOf(merchant),
        json: {
          onramp: {
            destination_amount: '20',
            crypto_currency: 'usdc',
            crypto_rails: blockchain,
            destination_address: destination,
            fiat_currency: 'usd',
            fiat_rails: 'ach_push',
          },
        },
      });
      expect(created.status, created.text).toBe(200);
      const id = created.body.onramp.id as string;
      expect(created.body.onramp).toMatchObject({ crypto_rails: blockchain, deposit_amount: 21 });
      const deposit = await service.request('POST', `/sandbox/users/${userId}/onramps/${id}/deposit`, {
        headers: authOf(merchant),
        json: { amount: '21' },
      });
      expect(deposit.status, deposit.text).toBe(200);
      const sent = await poll(
        async () =>
          (await service.request('GET', `/users/${userId}/onramps/${id}`, { headers: authOf(merchant) })).body
            .onramp,
        (o) => o.status === 'crypto_sent',
        'onramp',
      );
      expect(sent.tx_id).toMatch(/^0x[0-9a-f]{64}$/);
      const receipt = await chain().publicClient.getTransactionReceipt({ hash: sent.tx_id });
      expect(receipt.status).toBe('success');
      expect(await balanceOf(chain(), chain().deployment.tokens.USDC.address, destination)).toBe(20_000_000n);
    });

    it('executes a quote funded on its chain; the offramp reaches fiat_sent', async () => {
      const quote = await service.request('POST', `/users/${userId}/quotes`, {
        headers: authOf(merchant),
        json: { quote: { deposit_token: 'usdc', deposit_token_chain: blockchain } },
      });
      expect(quote.status, quote.text).toBe(200);
      expect(quote.body.deposit_address.blockchain).toBe(blockchain);
      const quoteId = quote.body.quote.id as string;
      const added = await service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
        headers: authOf(merchant),
        json: {
          offramps: [{ payment_detail_id: detail, destination_amount: '40', destination_currency: 'usd' }],
        },
      });
      expect(added.status, added.text).toBe(200);
      const shown = await service.request('GET', `/users/${userId}/quotes/${quoteId}`, {
        headers: authOf(merchant),
      });
      const due = parseUnits(String(shown.body.quote.deposit_token_amount), 6);
      const tx = await chain().transfer(
        1,
        chain().deployment.tokens.USDC.address,
        quote.body.deposit_address.adddress,
        due,
      );
      // The transfer names its network: the same hash on another test network is not this quote's.
      const elsewhere = testNetworks.find((n) => n.blockchain !== blockchain)!.blockchain;
      expectError(
        await service.request('POST', `/users/${userId}/quotes/${quoteId}/execute`, {
          headers: authOf(merchant),
          json: { quote: { crypto_transfer: { tx_id: tx, blockchain: elsewhere, network: 'testnet' } } },
        }),
        422,
        'currency_mismatch',
      );
      const executed = await service.request('POST', `/users/${userId}/quotes/${quoteId}/execute`, {
        headers: authOf(merchant),
        json: { quote: { crypto_transfer: { tx_id: tx, blockchain, network: 'testnet' } } },
      });
      expect(executed.status, executed.text).toBe(200);
      expect(executed.body.quote.executed).toBe(true);
      const offrampId = added.body.offramps[0].id as string;
      await poll(
        async () =>
          (
            await service.request('GET', `/users/${userId}/offramps/${offrampId}`, {
              headers: authOf(merchant),
            })
          ).body.offramp,
        (o) => o.status === 'fiat_sent',
        'offramp',
      );
    });
  });
});

/**
 * A 503 says what is unavailable (only internal errors are masked), and a request that meets an
 * unavailable dependency leaves nothing half written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createUser, expectError } from '../support/areaB.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

const tokens = {
  ethereum: {
    blockchain: 'ethereum',
    network: 'mainnet',
    address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  },
  polygon: {
    blockchain: 'polygon',
    network: 'mainnet',
    address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  },
};

async function openAmountProduct(service: TestService, merchant: TestMerchant, token: object) {
  const res = await service.request('POST', '/api/v1/products', {
    headers: merchant.headers,
    json: { product: { name: 'Shop', email: 'a@example.com', active: true, open_amount: true, token } },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.product as { id: string; slug: string };
}

const session = (token: { address: string }) => ({
  email: 'shopper@example.com',
  dollar_amount: '12.50',
  sender_address: '0x2222222222222222222222222222222222222222',
  token_address: token.address,
});

describe.skipIf(databaseUnavailable())('unavailable dependencies', () => {
  describe('without Temporal and RPC endpoints', () => {
    let service: TestService;
    let merchant: TestMerchant;
    beforeAll(async () => {
      service = await startTestService({ temporal: false });
      merchant = await service.createMerchant();
    });
    afterAll(async () => {
      await service?.stop();
    });

    /** The workflow calls waiting for a workflow, oldest first. */
    const waitingCalls = async (workflowId: string) =>
      (
        await service.deps.db.kysely
          .selectFrom('workflow_calls')
          .select(['kind', 'call'])
          .where('workflow_id', '=', workflowId)
          .where('taken_at', 'is', null)
          .orderBy('created_at')
          .execute()
      ).map((c) =>
        c.call.signal ? `${c.kind}:${c.call.signal.args.map((a) => JSON.stringify(a)).join()}` : c.kind,
      );

    it('names the chain without an RPC endpoint, and keeps a KYC decision for the workflow service', async () => {
      const product = await openAmountProduct(service, merchant, tokens.polygon);
      const res = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
        json: session(tokens.polygon),
      });
      expectError(res, 503, 'service_unavailable');
      expect(res.body.message).toBe(
        'Payments on polygon (mainnet) are unavailable: no RPC endpoint is configured',
      );

      const userId = await createUser(service, merchant);
      const kyc = await service.request('PATCH', `/sandbox/users/${userId}/kycs`, {
        headers: authOf(merchant),
        json: { kyc: { status: 'approved' } },
      });
      expect(kyc.status, kyc.text).toBe(200);
      // Durable, and made once a workflow service is there (the start, then the decision).
      expect(await waitingCalls(`kyc-${userId}`)).toEqual([
        'start',
        'signal_with_start:{"source":"provider","status":"approved"}',
      ]);
      const health = await service.request('GET', '/health');
      expect(health.body.backlog).toBe(0); // not yet older than two call deadlines
    });

    it('marks each KYC page step once, with its event queued for the workflow service', async () => {
      const userId = await createUser(service, merchant);
      const opened = await service.request('POST', `/users/${userId}/kycs`, { headers: authOf(merchant) });
      expect(opened.status, opened.text).toBe(200);
      const page = new URL(opened.body.kyc.url as string).pathname;
      for (const [method, path] of [
        ['GET', page],
        ['GET', page],
        ['POST', `${page}/submit`],
      ] as const) {
        const res = await service.request(method, path);
        expect(res.status, res.text).toBe(200);
      }
      const row = await service.deps.db.kysely
        .selectFrom('kyc_sessions')
        .select(['opened_at', 'submitted_at'])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      expect(row.opened_at).toBeInstanceOf(Date);
      expect(row.submitted_at).toBeInstanceOf(Date);
      // The page opened twice: one event.
      expect(await waitingCalls(`kyc-${userId}`)).toEqual([
        'start',
        'signal_with_start:{"source":"session","status":"initiated"}',
        'signal_with_start:{"source":"session","status":"pending_assessment"}',
      ]);
    });

    it('still masks an internal error', async () => {
      const res = await service.request('GET', '/users', { headers: { authorization: 'Bearer x' } });
      expectError(res, 401, 'unauthorized');
      // A broken database is a bug the caller cannot act on: the message stays generic.
      await service.deps.db.kysely.schema.alterTable('products').renameTo('products_gone').execute();
      try {
        const broken = await service.request('GET', '/api/v1/products', { headers: merchant.headers });
        expectError(broken, 500, 'internal_error');
        expect(broken.body.message).toBe('Internal server error');
      } finally {
        await service.deps.db.kysely.schema.alterTable('products_gone').renameTo('products').execute();
      }
    });
  });

  describe('with an RPC endpoint that does not answer', () => {
    let service: TestService;
    let merchant: TestMerchant;
    beforeAll(async () => {
      // Port 9 (discard) has no listener here: every RPC call is refused.
      service = await startTestService({ env: { RPC_URL_ETHEREUM: 'http://127.0.0.1:9' } });
      merchant = await service.createMerchant();
    });
    afterAll(async () => {
      await service?.stop();
    });

    it('answers 503 naming the chain and writes neither the expected payment nor the session', async () => {
      const product = await openAmountProduct(service, merchant, tokens.ethereum);
      const res = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
        json: session(tokens.ethereum),
      });
      expectError(res, 503, 'service_unavailable');
      expect(res.body.message).toBe('The RPC endpoint of ethereum (mainnet) cannot be reached; retry later');
      const db = service.deps.db.kysely;
      const payments = await db
        .selectFrom('expected_payments')
        .select('id')
        .where('product_id', '=', product.id)
        .execute();
      const sessions = await db
        .selectFrom('checkout_sessions')
        .select('id')
        .where('product_id', '=', product.id)
        .execute();
      expect(payments).toEqual([]);
      expect(sessions).toEqual([]);
    });
  });
});

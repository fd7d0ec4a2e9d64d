/** Expiry, late payments and worker restarts of the checkout workflow, on the real stack. */
import { randomBytes, randomUUID } from 'node:crypto';
import { upsertSession } from '@checkout/db';
import { type CheckoutSessionInput, checkoutWorkflowId } from '@checkout/workflows';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ServiceProcess, startServiceProcess } from '../../scripts/bench/checkout/target.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { createTestDatabase, databaseUnavailable, type TestDatabase } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { waitFor as readUntil, waitForDeliveries } from '../support/waitFor.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('checkout durability', () => {
  let chain: TestChain;
  let receiver: WebhookReceiver;
  let db: TestDatabase;
  let service: TestService;
  let merchant: TestMerchant;
  const taskQueue = `durability-${randomUUID()}`;
  const secretKey = randomBytes(32).toString('hex');
  const env = () => ({
    RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
    CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '3',
    CHAIN_POLL_INTERVAL_MS: '100',
    CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '0',
    CHECKOUT_SCAN_INTERVAL_MS: '100',
    TEMPORAL_TASK_QUEUE: taskQueue,
    // Both service instances must read the product secrets the first one sealed.
    SECRET_KEY: secretKey,
  });

  beforeAll(async () => {
    [chain, receiver, db] = await Promise.all([
      startTestChain(),
      startWebhookReceiver(),
      createTestDatabase(),
    ]);
    service = await startTestService({ db, env: env() });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await Promise.all([chain?.stop(), receiver?.close()]);
    await db?.close();
  });

  const busd = () => chain.deployment.tokens.BUSD.address;
  const shopper = (i: number) => chain.deployment.shoppers[i]!.address;

  const product = async (extra: Record<string, unknown> = {}) => {
    const res = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Durable',
          email: 'm@example.com',
          active: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd() },
          ...extra,
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.product as { id: string; slug: string };
  };

  const sessionStatus = async (id: string) =>
    (await service.request('GET', `/api/v1/checkout/sessions/${id}`)).body.session;
  const waitFor = async (
    id: string,
    predicate: (s: { status: string; confirmations: number }) => boolean,
    timeoutMs = 45_000,
  ) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await sessionStatus(id);
      if (predicate(s)) return s;
      if (Date.now() > deadline) throw new Error(`session did not get there: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('refuses a hash after expiry but still resolves a late payment, marked late', async () => {
    const p = await product();
    const ep = (
      await service.request('POST', `/api/v1/products/${p.id}/expected_payments`, {
        headers: merchant.headers,
        json: { dollar_amount: '4.00' },
      })
    ).body.expected_payment;
    // The product's timer is minutes long; this session's is two seconds, set where the workflow starts.
    const now = Date.now();
    const latest = await chain.publicClient.getBlockNumber();
    const reference = randomBytes(32).toString('hex');
    const { session } = await upsertSession(
      db.kysely,
      {
        id: randomUUID(),
        expected_payment_id: ep.id,
        product_id: p.id,
        merchant_id: merchant.merchantId,
        email: 'late@example.com',
        custom_fields: {},
        sender_address: shopper(0),
        payment_token_address: busd(),
        chain_id: 97,
        expected_token: {
          symbol: 'BUSD',
          address: busd(),
          name: 'BUSD Token',
          decimal_count: 18,
          blockchain: 'binance-smart-chain',
          network: 'testnet',
        },
        expected_token_amount: parseUnits('4', 18).toString(),
        receiving_address: merchant.address,
        required_confirmations: 3,
        start_block: latest.toString(),
        expires_at: new Date(now + 2_000),
        reference,
        client_secret_hash: null,
      },
      null,
    );
    const input: CheckoutSessionInput = {
      sessionId: session.id,
      expectedPaymentId: ep.id,
      productId: p.id,
      merchantId: merchant.merchantId,
      chainId: 97,
      expiresAt: now + 2_000,
      scanUntil: now + 120_000,
    };
    await service.deps.temporal!.client.workflow.start('checkoutSession', {
      workflowId: checkoutWorkflowId(ep.id),
      taskQueue,
      args: [input],
    });
    await waitFor(session.id, (s) => s.status === 'expired');

    const tx = await chain.transfer(0, busd(), merchant.address as Address, parseUnits('4', 18), {
      reference: `0x${reference}`,
    });
    const refused = await service.request('POST', `/api/v1/checkout/sessions/${session.id}/transactions`, {
      json: { tx_hash: tx },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('checkout_expired');

    await chain.mine(3);
    const done = await waitFor(session.id, (s) => s.status === 'resolved');
    expect(done).toMatchObject({ late: true, tx_hash: tx.toLowerCase() });
    const payments = (
      await service.request('GET', `/api/v1/products/${p.id}/resolved_payments`, {
        headers: merchant.headers,
      })
    ).body.resolved_payments;
    expect(payments).toHaveLength(1);
    expect(payments[0].payment).toMatchObject({ tx_id: tx.toLowerCase(), exception_status: 'paid_late' });
  });

  it('resolves exactly once, with one webhook, when the worker stops mid-resolution and another takes over', async () => {
    const p = await product({ send_webhook: true, webhook_url: receiver.url });
    const ep = (
      await service.request('POST', `/api/v1/products/${p.id}/expected_payments`, {
        headers: merchant.headers,
        json: { dollar_amount: '6.00' },
      })
    ).body.expected_payment;
    const opened = await service.request('POST', `/api/v1/checkout/${p.slug}/sessions`, {
      json: {
        expected_payment_id: ep.id,
        email: 's@example.com',
        sender_address: shopper(1),
        token_address: busd(),
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const sessionId = opened.body.session.id as string;
    const tx = await chain.transfer(1, busd(), merchant.address as Address, parseUnits('6', 18));
    expect(
      (
        await service.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
          json: { tx_hash: tx },
        })
      ).status,
    ).toBe(200);
    // Mined, one confirmation of three: the activity is waiting on the chain.
    await waitFor(sessionId, (s) => s.status === 'confirming' && s.confirmations === 1);

    await service.stop();
    await chain.mine(3);
    service = await startTestService({ db, env: env() });

    const done = await waitFor(sessionId, (s) => s.status === 'resolved');
    expect(done.confirmations).toBeGreaterThanOrEqual(3);
    const payments = (
      await service.request('GET', `/api/v1/products/${p.id}/resolved_payments`, {
        headers: merchant.headers,
      })
    ).body.resolved_payments;
    expect(payments).toHaveLength(1);
    await waitForDeliveries(service.deps.db.kysely, payments[0].id, 1);
    const hooks = await receiver.waitFor(1);
    const forPayment = receiver.received.filter((h) => h.body.includes(payments[0].id));
    expect(forPayment).toHaveLength(1);
    expect(new Set(hooks.map((h) => h.headers['x-webhook-id'])).size).toBe(1);
  });

  // Two processes share the database here, which only PostgreSQL allows (an embedded database is one process's).
  it.runIf(inject('databaseKind') === 'postgres')(
    'resolves exactly once, with one webhook, when the worker process is killed (SIGKILL) mid-resolution and restarted',
    async () => {
      const killQueue = `durability-kill-${randomUUID()}`;
      const processEnv = {
        ...env(),
        TEMPORAL_TASK_QUEUE: killQueue,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        BENCH_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
        DATABASE_URL: db.url!,
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      };
      // The API in this process, with no worker; the only worker runs in the child process.
      const api = await startTestService({
        db,
        env: { ...env(), TEMPORAL_TASK_QUEUE: killQueue, RUN_WORKER: 'false' },
      });
      // The benchmark's service process: the real service from its environment, with a ready line.
      const spawnWorker = () =>
        startServiceProcess({
          label: 'worker',
          env: { ...process.env, ...processEnv },
          cwd: process.cwd(),
          readyTimeoutMs: 60_000,
        });
      let workerProcess: ServiceProcess | undefined = await spawnWorker();
      try {
        const p = await product({ send_webhook: true, webhook_url: receiver.url });
        const ep = (
          await api.request('POST', `/api/v1/products/${p.id}/expected_payments`, {
            headers: merchant.headers,
            json: { dollar_amount: '7.00' },
          })
        ).body.expected_payment;
        const opened = await api.request('POST', `/api/v1/checkout/${p.slug}/sessions`, {
          json: {
            expected_payment_id: ep.id,
            email: 'k@example.com',
            sender_address: shopper(2),
            token_address: busd(),
          },
        });
        expect(opened.status, opened.text).toBe(200);
        const sessionId = opened.body.session.id as string;
        const tx = await chain.transfer(2, busd(), merchant.address as Address, parseUnits('7', 18));
        const submitted = await api.request('POST', `/api/v1/checkout/sessions/${sessionId}/transactions`, {
          json: { tx_hash: tx },
        });
        expect(submitted.status, submitted.text).toBe(200);
        // One confirmation of three: the worker's activity is polling the chain when it dies.
        await waitFor(sessionId, (s) => s.status === 'confirming' && s.confirmations === 1);
        await workerProcess.kill();
        workerProcess = undefined;
        await chain.mine(3);
        expect((await sessionStatus(sessionId)).status).toBe('confirming');

        workerProcess = await spawnWorker();
        // The lost activity is retried once its heartbeat times out.
        const done = await waitFor(sessionId, (s) => s.status === 'resolved', 90_000);
        expect(done.confirmations).toBeGreaterThanOrEqual(3);
        const payments = (
          await api.request('GET', `/api/v1/products/${p.id}/resolved_payments`, {
            headers: merchant.headers,
          })
        ).body.resolved_payments;
        expect(payments).toHaveLength(1);
        await waitForDeliveries(api.deps.db.kysely, payments[0].id, 1);
        const forPayment = receiver.received.filter((h) => h.body.includes(payments[0].id));
        expect(forPayment).toHaveLength(1);
      } finally {
        await workerProcess?.kill();
        await api.stop();
      }
    },
    150_000,
  );

  it('answers a hash submitted while the chain cannot be reached, and resolves the payment once it can', async () => {
    const rpc = new URL(chain.chain.rpcUrl);
    const proxy = await startTcpProxy(`${rpc.hostname}:${rpc.port}`);
    const queue = `durability-rpc-${randomUUID()}`;
    const viaProxy = await startTestService({
      db,
      env: {
        ...env(),
        TEMPORAL_TASK_QUEUE: queue,
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: `http://${proxy.address}`,
        CONFIRMATIONS_BINANCE_SMART_CHAIN_TESTNET: '1',
      },
    });
    try {
      const p = await product();
      const ep = (
        await viaProxy.request('POST', `/api/v1/products/${p.id}/expected_payments`, {
          headers: merchant.headers,
          json: { dollar_amount: '3.00' },
        })
      ).body.expected_payment;
      const opened = await viaProxy.request('POST', `/api/v1/checkout/${p.slug}/sessions`, {
        json: {
          expected_payment_id: ep.id,
          email: 'r@example.com',
          sender_address: shopper(3),
          token_address: busd(),
        },
      });
      expect(opened.status, opened.text).toBe(200);
      const sessionId = opened.body.session.id as string;
      const tx = await chain.transfer(3, busd(), merchant.address as Address, parseUnits('3', 18));

      proxy.down();
      const submitted = await viaProxy.request(
        'POST',
        `/api/v1/checkout/sessions/${sessionId}/transactions`,
        {
          json: { tx_hash: tx },
        },
      );
      expect(submitted.status, submitted.text).toBe(200);
      expect(submitted.body.session).toMatchObject({ status: 'confirming', tx_hash: tx.toLowerCase() });
      // The workflow's first look at the hash met the chain down, and it went on to watch for it: the
      // session still confirms.
      const checkout = viaProxy.deps.temporal!.client.workflow.getHandle(checkoutWorkflowId(ep.id));
      await readUntil(
        () => checkout.describe(),
        (d) => (d.raw.pendingActivities ?? []).some((a) => a.activityType?.name === 'awaitTransaction'),
        'the checkout never went on to watch the hash',
      );
      expect(
        (await viaProxy.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session.status,
      ).toBe('confirming');

      proxy.up();
      const deadline = Date.now() + 60_000;
      let session = (await viaProxy.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session;
      while (session.status !== 'resolved' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        session = (await viaProxy.request('GET', `/api/v1/checkout/sessions/${sessionId}`)).body.session;
      }
      expect(session).toMatchObject({ status: 'resolved', tx_hash: tx.toLowerCase() });
      const payments = (
        await viaProxy.request('GET', `/api/v1/products/${p.id}/resolved_payments`, {
          headers: merchant.headers,
        })
      ).body.resolved_payments;
      expect(payments).toHaveLength(1);
    } finally {
      await viaProxy.stop();
      await proxy.close();
    }
  }, 120_000);
});

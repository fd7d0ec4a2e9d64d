/**
 * `refund` with the real refund and webhook activities over PGlite, a real SMTP inbox and a webhook
 * receiver: on the time-skipping server, a refund nobody claims reminds the customer at half its 14-day
 * window and expires at its end, announced once by webhook and e-mail; on the dev server with a workflow
 * bundle that fails a workflow task after each e-mail step, every e-mail still arrives exactly once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenRegistry } from '@checkout/core';
import {
  createApiKey,
  createSecretBox,
  type Db,
  findRefundById,
  insertProduct,
  insertRefund,
  openDatabase,
  pageTokenHash,
} from '@checkout/db';
import { createMailer, type DevInbox, startDevInbox } from '@checkout/mail';
import { DefaultLogger, Worker } from '@temporalio/worker';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import {
  connectTestTemporal,
  createTimeSkippingEnv,
  shownStatus,
  startTestWorker,
} from '../../../test/support/temporal.ts';
import { startWebhookEndpoint, type WebhookEndpoint } from '../../../test/support/webhookEndpoint.ts';
import { createWorkflowTaskFaultActivities, workflowTaskFaultsModule } from '../faults/activities.ts';
import { Summary } from '../shared.ts';
import { createWebhookActivities } from '../webhookDelivery/activities.ts';
import { bundleWorkflows } from '../worker.ts';
import { createRefundActivities } from './activities.ts';
import { refundWorkflowId } from './shared.ts';
import { refund } from './workflow.ts';

const day = 86_400_000;
const secrets = createSecretBox(randomBytes(32));
const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`);
const busd = randomAddress();
const tokens = createTokenRegistry({ chainId: 97, testTokenAddress: busd });

let db: Db;
let inbox: DevInbox;
let endpoint: WebhookEndpoint;

beforeAll(async () => {
  [db, inbox, endpoint] = await Promise.all([
    openDatabase({ kind: 'pglite-memory' }),
    startDevInbox({ dir: mkdtempSync(join(tmpdir(), 'refund-inbox-')) }),
    startWebhookEndpoint(),
  ]);
});

afterAll(async () => {
  await Promise.all([inbox?.close(), endpoint?.close()]);
  await db?.close();
});

/** The refund and webhook activities (and `extra`) over the test's database and inbox. */
function activities(extra: object = {}) {
  return {
    ...createRefundActivities({
      db,
      secrets,
      tokens,
      chains: new Map(),
      mailer: createMailer({ smtpUrl: inbox.smtpUrl, from: 'checkout@example.com' }),
      publicBaseUrl: 'https://pay.example',
      checkout: { pollIntervalMs: 1_000 },
    }),
    ...createWebhookActivities({ db, secrets, webhooks: { allowPrivateAddresses: true } }),
    ...extra,
  };
}

/**
 * A refund of 7 BUSD waiting for its address, requested at `now` with a claim window of `windowMs`, of a
 * product that sends webhooks to the test's receiver under `path`; the customer writes Spanish.
 */
async function awaitingRefund(now: number, windowMs: number, path: string) {
  const wallet = await createApiKey(db.kysely, { address: randomAddress() });
  const merchantEmail = `merchant-${wallet.merchantId}@example.com`;
  const customerEmail = `ana-${wallet.merchantId}@example.com`;
  const product = await insertProduct(db.kysely, {
    id: randomUUID(),
    merchant_id: wallet.merchantId,
    address_id: wallet.addressId,
    name: 'Filter papers',
    email: merchantEmail,
    send_email: true,
    email_body: '',
    send_webhook: true,
    webhook_url: `${endpoint.url}${path}`,
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    active: true,
    tax_rate: '0',
    swappable: false,
    open_amount: false,
    expires_in_minutes: null,
    custom_fields: JSON.stringify([]),
    token_blockchain: 'binance-smart-chain',
    token_network: 'testnet',
    token_address: busd,
    token_symbol: 'BUSD',
    token_name: 'BUSD Token',
    token_decimals: 18,
    chain_id: 97,
    secret_ciphertext: secrets.seal('product secret'),
    created_at: new Date(now),
    updated_at: new Date(now),
  });
  const claim = randomBytes(32).toString('base64url');
  const pay = randomBytes(32).toString('base64url');
  const row = await insertRefund(db.kysely, {
    id: randomUUID(),
    merchant_id: wallet.merchantId,
    address_id: wallet.addressId,
    product_id: product.id,
    resolved_payment_id: randomUUID(),
    unmatched_transfer_id: null,
    chain_id: 97,
    token: JSON.stringify({
      symbol: 'BUSD',
      address: busd,
      name: 'BUSD Token',
      decimal_count: 18,
      blockchain: 'binance-smart-chain',
      network: 'testnet',
    }),
    token_address: busd.toLowerCase(),
    from_address: wallet.address.toLowerCase(),
    amount: (7n * 10n ** 18n).toString(),
    reason: 'Damaged in transit',
    status: 'awaiting_address',
    refund_address: null,
    address_source: null,
    email_ciphertext: secrets.seal(customerEmail),
    locale: 'es',
    claim_token_hash: pageTokenHash(claim),
    pay_token_hash: pageTokenHash(pay),
    tokens_ciphertext: secrets.seal(JSON.stringify({ claim, pay })),
    claim_expires_at: new Date(now + windowMs),
    created_at: new Date(now),
  });
  return { row, claim, customerEmail, merchantEmail };
}

/** The messages of the inbox sent to `address`. */
const mailTo = async (address: string) => (await inbox.list()).filter((m) => m.to.includes(address));

/** Waits (bounded) until `count` messages reached `address`. */
async function waitForMail(address: string, count: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await mailTo(address)).length < count) {
    if (Date.now() > deadline)
      throw new Error(`${address} got ${(await mailTo(address)).length} of ${count}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return mailTo(address);
}

describe('refund on the time-skipping server', () => {
  it('reminds the customer at half the claim window and expires the refund at its end, each once', async () => {
    const env = await createTimeSkippingEnv();
    try {
      const w = await startTestWorker({ connection: env.nativeConnection, activities: activities() });
      await w.run(async () => {
        const { row, claim, customerEmail, merchantEmail } = await awaitingRefund(
          await env.currentTimeMs(),
          14 * day,
          '/expiry',
        );
        const handle = await env.client.workflow.start(refund, {
          workflowId: refundWorkflowId(row.id),
          taskQueue: w.taskQueue,
          args: [{ refundId: row.id }],
        });
        const [asked] = await waitForMail(customerEmail, 1);
        expect(asked?.subject).toBe('[PRUEBA] Tienes un reembolso de 7 BUSD de Filter papers');
        expect(asked?.text).toContain(`https://pay.example/refunds/claim/${claim}`);
        expect(asked?.text).toContain('exchange');
        // The Summary is upserted in the workflow task that runs the e-mail's local activity: it reaches the
        // server when that task completes, which may be just after the e-mail arrived.
        await expect
          .poll(async () => (await shownStatus(handle)).summary, { timeout: 10_000 })
          .toBe(`Refund 7 BUSD · awaiting address · payment ${row.resolved_payment_id}`);
        const waiting = await shownStatus(handle);
        expect(waiting.details).toContain('reminder to the customer at');

        // Just before half the window: no reminder yet.
        await env.sleep(7 * day - 3_600_000);
        await new Promise((r) => setTimeout(r, 500));
        expect(await mailTo(customerEmail)).toHaveLength(1);
        await env.sleep(2 * 3_600_000);
        const reminded = await waitForMail(customerEmail, 2);
        expect(reminded[1]?.subject).toBe(
          '[PRUEBA] Recordatorio: reclama tu reembolso de 7 BUSD de Filter papers',
        );

        expect(await handle.result()).toEqual({ status: 'expired' });
        expect(await findRefundById(db.kysely, row.id)).toMatchObject({ status: 'expired' });
        const customer = await waitForMail(customerEmail, 3);
        const merchant = await waitForMail(merchantEmail, 1);
        expect(customer.map((m) => m.subject)).toEqual([
          '[PRUEBA] Tienes un reembolso de 7 BUSD de Filter papers',
          '[PRUEBA] Recordatorio: reclama tu reembolso de 7 BUSD de Filter papers',
          '[PRUEBA] Tu reembolso de 7 BUSD de Filter papers venció sin reclamarse',
        ]);
        expect(merchant[0]?.subject).toBe('[TEST] Refund expired unclaimed: 7 BUSD · Filter papers');
        const hooks = await endpoint.waitFor(1, 20_000);
        const expiry = hooks.filter((h) => h.path === '/expiry');
        expect(expiry).toHaveLength(1);
        expect(JSON.parse(String(expiry[0]?.body ?? '{}'))).toMatchObject({
          event: 'refund.updated',
          payload: { refund: { id: row.id, status: 'expired', claim_url: null } },
        });
        // Nothing more arrives.
        await new Promise((r) => setTimeout(r, 1_000));
        expect(await mailTo(customerEmail)).toHaveLength(3);
        expect(await mailTo(merchantEmail)).toHaveLength(1);
        expect(endpoint.requests.filter((h) => h.path === '/expiry')).toHaveLength(1);
        const ended = await handle.describe();
        expect(ended.typedSearchAttributes.get(Summary)).toBe(
          `Refund 7 BUSD · expired · payment ${row.resolved_payment_id}`,
        );
      });
    } finally {
      await env.teardown();
    }
  }, 120_000);
});

describe('refund when workflow tasks fail after its e-mail steps', () => {
  it('sends each e-mail once: the claim link, the reminder, and the expiry to customer and merchant', async () => {
    const temporal = await connectTestTemporal();
    const dir = mkdtempSync(join(tmpdir(), 'refund-faulty-bundle-'));
    const { codePath } = await bundleWorkflows(join(dir, 'workflows.js'), new DefaultLogger('WARN'), {
      interceptorModules: [workflowTaskFaultsModule],
    });
    const faults = createWorkflowTaskFaultActivities(['sendRefundEmails', 'sendRefundReminder']);
    const taskQueue = `refund-faults-${randomUUID()}`;
    const worker = await Worker.create({
      connection: temporal.nativeConnection,
      taskQueue,
      activities: activities(faults.activities),
      workflowBundle: { codePath },
    });
    try {
      await worker.runUntil(async () => {
        // A window of 40 s: the reminder at 20 s, the expiry at 40 s (a failed task is retried after 10 s).
        const { row, customerEmail, merchantEmail } = await awaitingRefund(Date.now(), 40_000, '/faults');
        const handle = await temporal.client.workflow.start(refund, {
          workflowId: refundWorkflowId(row.id),
          taskQueue,
          args: [{ refundId: row.id }],
        });
        expect(await handle.result()).toEqual({ status: 'expired' });
        const customer = await waitForMail(customerEmail, 3);
        const merchant = await waitForMail(merchantEmail, 1);
        const deadline = Date.now() + 20_000;
        while (!endpoint.requests.some((h) => h.path === '/faults') && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 50));
        }
        await new Promise((r) => setTimeout(r, 2_000));
        expect(await mailTo(customerEmail)).toHaveLength(3);
        expect(await mailTo(merchantEmail)).toHaveLength(1);
        expect(new Set([...customer, ...merchant].map((m) => m.messageId)).size).toBe(4);
        expect(endpoint.requests.filter((h) => h.path === '/faults')).toHaveLength(1);
        for (const type of ['sendRefundEmails', 'sendRefundReminder']) {
          expect(faults.injected.filter((k) => k.endsWith(`:${type}`)).length).toBeGreaterThanOrEqual(1);
        }
        expect(faults.injected.filter((k) => k.endsWith(':sendRefundEmails')).length).toBeGreaterThanOrEqual(
          2,
        );
      });
    } finally {
      await temporal.teardown();
    }
  }, 180_000);
});

/**
 * Every effect that leaves the service happens once even when workflow tasks fail and are retried: the
 * workflows run from a bundle whose interceptor fails the task right after each effectful local activity
 * (once each), so every such activity runs twice. E-mails are counted in a real SMTP inbox and webhook
 * requests at a real HTTP receiver.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DevInbox, startDevInbox } from '@checkout/mail';
import {
  bundleWorkflows,
  checkoutWorkflowId,
  unmatchedWorkflowId,
  webhookWorkflowId,
} from '@checkout/workflows';
import {
  createWorkflowTaskFaultActivities,
  type WorkflowTaskFaults,
  workflowTaskFaultsModule,
} from '@checkout/workflows/faults';
import { DefaultLogger } from '@temporalio/worker';
import type { Address, Hash } from 'viem';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

const effectful = [
  'checkTransaction',
  'recordResolution',
  'attemptWebhookDelivery',
  'sendPaymentEmails',
  'sendUnmatchedTransferEmail',
];

describe.skipIf(databaseUnavailable())('effects under retried workflow tasks', () => {
  let chain: TestChain;
  let service: TestService;
  let inbox: DevInbox;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;
  let faults: WorkflowTaskFaults;
  let busd: Address;

  beforeAll(async () => {
    const bundleDir = mkdtempSync(join(tmpdir(), 'checkout-faulty-bundle-'));
    let bundlePath: string;
    [chain, inbox, receiver, { codePath: bundlePath }] = await Promise.all([
      startTestChain(),
      startDevInbox({ dir: mkdtempSync(join(tmpdir(), 'checkout-inbox-')) }),
      startWebhookReceiver(),
      bundleWorkflows(join(bundleDir, 'workflows.js'), new DefaultLogger('WARN'), {
        interceptorModules: [workflowTaskFaultsModule],
      }),
    ]);
    busd = chain.deployment.tokens.BUSD.address;
    faults = createWorkflowTaskFaultActivities(effectful);
    service = await startTestService({
      workflowBundlePath: bundlePath,
      extraActivities: faults.activities,
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        SMTP_URL: inbox.smtpUrl,
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_GRACE_MINUTES: '1',
        CHECKOUT_SHORT_PAYMENT_WAIT_SECONDS: '1',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
        RAMP_RECONCILE_INTERVAL_MS: '1000',
        UNMATCHED_EMAIL_INTERVAL_SECONDS: '2',
      },
    });
    merchant = await service.createMerchant();
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await Promise.all([chain?.stop(), inbox?.close(), receiver?.close()]);
  });

  it('sends each e-mail and each webhook attempt once per payment', async () => {
    const created = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Filter papers',
          email: 'merchant@example.com',
          active: true,
          send_webhook: true,
          webhook_url: receiver.url,
          send_email: true,
          email_body: 'Thanks!',
          custom_fields: [],
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const product = created.body.product as { id: string; slug: string };

    const payments = 3;
    const sessions: string[] = [];
    const expectedIds: string[] = [];
    for (let i = 0; i < payments; i++) {
      const expected = await service.request('POST', `/api/v1/products/${product.id}/expected_payments`, {
        headers: merchant.headers,
        json: { dollar_amount: `${10 + i}.00`, customer_email: `shopper${i}@example.com` },
      });
      expect(expected.status, expected.text).toBe(200);
      expectedIds.push(expected.body.expected_payment.id);
      const opened = await service.request('POST', `/api/v1/checkout/${product.slug}/sessions`, {
        json: {
          email: `shopper${i}@example.com`,
          custom_fields: {},
          expected_payment_id: expected.body.expected_payment.id,
          sender_address: chain.deployment.shoppers[i]!.address,
          token_address: busd,
        },
      });
      expect(opened.status, opened.text).toBe(200);
      const tx: Hash = await chain.transfer(
        i,
        busd,
        merchant.address as Address,
        parseUnits(`${10 + i}`, 18),
      );
      const submitted = await service.request(
        'POST',
        `/api/v1/checkout/sessions/${opened.body.session.id}/transactions`,
        { json: { tx_hash: tx } },
      );
      // A failed workflow task is retried after a pause: the submission may answer before the workflow
      // took the hash (202), which the hand-over's sweep (`sweepPendingHashes`) then hands over.
      expect([200, 202], submitted.text).toContain(submitted.status);
      sessions.push(opened.body.session.id);
    }
    for (const id of sessions) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const res = await service.request('GET', `/api/v1/checkout/sessions/${id}`);
        if (res.body.session.status === 'resolved') break;
        if (Date.now() > deadline) throw new Error(`session stayed ${res.text}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // Both messages of every payment.
    const deadline = Date.now() + 60_000;
    while ((await inbox.list()).length < payments * 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await receiver.waitFor(payments, 30_000);
    // Every workflow that could send one again has ended: each checkout (its e-mails are its own local
    // activities) and each delivery. What the inbox and the receiver hold now is all there will be.
    const client = service.deps.temporal!.client;
    await Promise.all([
      ...expectedIds.map((id) => client.workflow.getHandle(checkoutWorkflowId(id)).result()),
      ...receiver.received.map((h) =>
        client.workflow.getHandle(webhookWorkflowId(String(h.headers['x-webhook-id']))).result(),
      ),
    ]);

    const mails = await inbox.list();
    const byId = new Map<string, number>();
    for (const m of mails) byId.set(m.messageId, (byId.get(m.messageId) ?? 0) + 1);
    expect(mails).toHaveLength(payments * 2);
    expect([...byId.values()]).toEqual(Array(payments * 2).fill(1));

    const hooks = new Map<string, number>();
    for (const h of receiver.received) {
      const id = String(h.headers['x-webhook-id']);
      hooks.set(id, (hooks.get(id) ?? 0) + 1);
    }
    expect(hooks.size).toBe(payments);
    expect([...hooks.values()]).toEqual(Array(payments).fill(1));

    // The faults really happened: every effectful local activity of every payment ran into a failed task.
    for (const type of ['sendPaymentEmails', 'attemptWebhookDelivery']) {
      expect(faults.injected.filter((k) => k.endsWith(`:${type}`)).length).toBeGreaterThanOrEqual(payments);
    }
  }, 240_000);

  it('announces each unmatched transfer once: one e-mail and one webhook', async () => {
    const other = await service.createMerchant();
    const email = `strays-${other.merchantId}@example.com`;
    const created = await service.request('POST', '/api/v1/products', {
      headers: other.headers,
      json: {
        product: {
          name: 'Strays',
          email,
          active: true,
          send_webhook: true,
          webhook_url: `${receiver.url}/strays`,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    // An open checkout makes the wallet watched; two transfers fit no order.
    const expected = await service.request(
      'POST',
      `/api/v1/products/${created.body.product.id}/expected_payments`,
      { headers: other.headers, json: { dollar_amount: '50.00' } },
    );
    const opened = await service.request('POST', `/api/v1/checkout/${created.body.product.slug}/sessions`, {
      json: {
        email: 'shopper@example.com',
        expected_payment_id: expected.body.expected_payment.id,
        sender_address: chain.deployment.shoppers[0]!.address,
        token_address: busd,
      },
    });
    expect(opened.status, opened.text).toBe(200);
    const strays = 2;
    const sent: Hash[] = [];
    for (let i = 0; i < strays; i++) {
      sent.push(await chain.transfer(3 + i, busd, other.address as Address, parseUnits(`${1 + i}`, 18)));
    }
    // The merchant's e-mails are grouped: each transfer is told in exactly one of them.
    const mine = async () => (await inbox.list()).filter((m) => m.to.includes(email));
    const toldOf = async (hash: Hash) =>
      (await mine()).filter((m) => m.text.includes(hash.toLowerCase())).length;
    const deadline = Date.now() + 60_000;
    for (const hash of sent) {
      while ((await toldOf(hash)) === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    }
    const hooks = () => receiver.received.filter((h) => h.path.endsWith('/strays'));
    while (hooks().length < strays && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // Nothing can send one again once every workflow that could has ended: each transfer's (its e-mail step
    // ends as soon as its batch is sent, whichever transfer sent it; sealing its fate ends the following) and
    // each delivery's.
    const ids = (
      await service.request('GET', '/api/v1/unmatched_transfers', { headers: other.headers })
    ).body.unmatched_transfers.map((t: { id: string }) => t.id);
    expect(ids).toHaveLength(strays);
    for (const id of ids) {
      const dismissed = await service.request('POST', `/api/v1/unmatched_transfers/${id}/dismiss`, {
        headers: other.headers,
        json: { note: 'Not ours' },
      });
      expect(dismissed.status, dismissed.text).toBe(200);
    }
    const client = service.deps.temporal!.client;
    await Promise.all([
      ...ids.map((id: string) => client.workflow.getHandle(unmatchedWorkflowId(id)).result()),
      ...hooks().map((h) =>
        client.workflow.getHandle(webhookWorkflowId(String(h.headers['x-webhook-id']))).result(),
      ),
    ]);
    for (const hash of sent) expect(await toldOf(hash)).toBe(1);
    expect(new Set((await mine()).map((m) => m.messageId)).size).toBe((await mine()).length);
    expect(hooks()).toHaveLength(strays);
    // The faults really happened: an e-mail's activity ran into a failed task (one e-mail may tell both).
    expect(
      faults.injected.filter((k) => k.endsWith(':sendUnmatchedTransferEmail')).length,
    ).toBeGreaterThanOrEqual(1);
  }, 180_000);
});

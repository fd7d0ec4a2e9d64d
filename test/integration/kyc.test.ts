/** The kycOnboarding workflow through the sandbox: every path, with signed kyc_update webhooks at a local receiver. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authOf,
  createUser,
  decideKyc,
  expectError,
  signatureMatches,
  waitForKyc,
  webhookSecretOf,
} from '../support/areaB.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('kyc onboarding', () => {
  let service: TestService;
  let merchant: TestMerchant;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    service = await startTestService();
    merchant = await service.createMerchant();
    receiver = await startWebhookReceiver();
    const put = await service.request('PUT', '/webhook_endpoint', {
      headers: authOf(merchant),
      json: { webhook_endpoint: { url: receiver.url } },
    });
    expect(put.status, put.text).toBe(200);
    secret = await webhookSecretOf(service, merchant);
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
  });

  /** The kyc_update events received for a user, in order, each checked for its signature. */
  async function kycEventsOf(userId: string, count: number) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const mine = receiver.received
        .map((r) => ({ r, body: JSON.parse(r.body) }))
        .filter(({ body }) => body.event === 'kyc_update' && body.payload.user.id === userId);
      if (mine.length >= count) {
        for (const { r } of mine) {
          expect(signatureMatches(secret, r.headers['x-sig'], r.body)).toBe(true);
          expect(r.headers['x-webhook-event']).toBe('kyc_update');
        }
        return mine.map(({ body }) => body);
      }
      if (Date.now() > deadline)
        throw new Error(`only ${mine.length} of ${count} kyc_update webhooks arrived`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('opens a session: the hosted page moves the case to initiated, submitting to pending_assessment, then approved', async () => {
    const userId = await createUser(service, merchant);
    const session = await service.request('POST', `/users/${userId}/kycs`, { headers: authOf(merchant) });
    expect(session.status, session.text).toBe(200);
    expect(session.body).toEqual({
      kyc: { user_id: userId, url: expect.stringMatching(/\/sandbox\/kyc\/[A-Za-z0-9_-]{32}$/) },
    });
    const path = new URL(session.body.kyc.url).pathname;
    const pageRes = await service.request('GET', path);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get('content-type')).toMatch(/text\/html/);
    await waitForKyc(service, merchant, userId, (k) => k.general.status === 'initiated');
    const submitted = await service.request('POST', `${path}/submit`);
    expect(submitted.status).toBe(200);
    await waitForKyc(service, merchant, userId, (k) => k.general.status === 'pending_assessment');

    for (const status of [
      'prechecks_completed',
      'application_queued',
      'awaiting_manual_review',
      'approved',
    ]) {
      await decideKyc(service, merchant, userId, { status });
    }
    const user = await waitForKyc(service, merchant, userId, (k) => k.general.status === 'approved');
    expect(user.kyc).toEqual({
      general: { status: 'approved', moderation_comment: null },
      eur: { status: 'approved', swift_status: 'not_started' },
      usd: { status: 'approved', swift_status: 'not_started' },
      ars: { status: 'approved', swift_status: 'not_started' },
      status_message: null,
    });
    const events = await kycEventsOf(userId, 6);
    expect(events.map((e) => e.payload.user.kyc.general.status)).toEqual([
      'initiated',
      'pending_assessment',
      'prechecks_completed',
      'application_queued',
      'awaiting_manual_review',
      'approved',
    ]);
    expect(Object.keys(events[5].payload)).toEqual(['user']);
    expect(events[5].payload.user).toEqual(user);
  });

  it('fails a case with a moderation comment', async () => {
    const userId = await createUser(service, merchant);
    await decideKyc(service, merchant, userId, { status: 'failed', moderation_comment: 'Document expired' });
    const user = await waitForKyc(service, merchant, userId, (k) => k.general.status === 'failed');
    expect(user.kyc.general).toEqual({ status: 'failed', moderation_comment: 'Document expired' });
    const [event] = await kycEventsOf(userId, 1);
    expect(event.payload.user.kyc.general.status).toBe('failed');
  });

  it('asks for a retry, then approves after a new session', async () => {
    const userId = await createUser(service, merchant);
    await decideKyc(service, merchant, userId, { status: 'retry_required' });
    const retry = await waitForKyc(service, merchant, userId, (k) => k.general.status === 'retry_required');
    expect(retry.kyc.general.moderation_comment).toMatch(/new KYC session/);
    const session = await service.request('POST', `/users/${userId}/kycs`, { headers: authOf(merchant) });
    expect(session.status).toBe(200);
    await service.request('GET', new URL(session.body.kyc.url).pathname);
    await waitForKyc(service, merchant, userId, (k) => k.general.status === 'initiated');
    await decideKyc(service, merchant, userId, { status: 'approved' });
    await waitForKyc(service, merchant, userId, (k) => k.general.status === 'approved');
    const events = await kycEventsOf(userId, 3);
    expect(events.map((e) => e.payload.user.kyc.general.status)).toEqual([
      'retry_required',
      'initiated',
      'approved',
    ]);
  });

  it('full_clearance approves general, every currency and swift', async () => {
    const userId = await createUser(service, merchant);
    await decideKyc(service, merchant, userId, { status: 'full_clearance' });
    const user = await waitForKyc(service, merchant, userId, (k) => k.usd.swift_status === 'approved');
    const cleared = { status: 'approved', swift_status: 'approved' };
    expect(user.kyc).toEqual({
      general: { status: 'approved', moderation_comment: null },
      eur: cleared,
      usd: cleared,
      ars: cleared,
      status_message: null,
    });
    const [event] = await kycEventsOf(userId, 1);
    expect(event.payload.user.kyc).toEqual(user.kyc);
  });

  it('narrows a decision to one currency and rail', async () => {
    const userId = await createUser(service, merchant);
    await decideKyc(service, merchant, userId, { status: 'approved', currency: 'eur', rail: 'swift' });
    const user = await waitForKyc(service, merchant, userId, (k) => k.eur.swift_status === 'approved');
    expect(user.kyc.general.status).toBe('not_started');
    expect(user.kyc.eur.status).toBe('not_started');
  });

  it('refuses bad sandbox input and other accounts', async () => {
    const userId = await createUser(service, merchant);
    const other = await service.createMerchant();
    const patch = (kyc: unknown, who = merchant, id = userId) =>
      service.request('PATCH', `/sandbox/users/${id}/kycs`, { headers: authOf(who), json: { kyc } });
    expectError(await patch({ status: 'done' }), 422, 'record_invalid');
    expectError(await patch({ status: 'approved', currency: 'gbp' }), 422, 'record_invalid');
    expectError(await patch(null), 400, 'parameter_missing');
    expectError(await patch({ status: 'approved' }, other), 404, 'record_not_found');
    expectError(
      await patch({ status: 'approved' }, merchant, '00000000-0000-4000-8000-000000000000'),
      404,
      'record_not_found',
    );
    expectError(await service.request('GET', '/sandbox/kyc/unknown-token'), 404, 'record_not_found');
    expectError(
      await service.request('POST', `/users/${userId}/kycs`, { headers: authOf(other) }),
      404,
      'record_not_found',
    );
  });
});

describe.skipIf(databaseUnavailable())('sandbox disabled', () => {
  let service: TestService;
  let merchant: TestMerchant;

  beforeAll(async () => {
    service = await startTestService({ temporal: false, env: { SANDBOX_ENABLED: 'false' } });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('has no sandbox routes and no KYC provider', async () => {
    const userId = await createUser(service, merchant);
    expectError(
      await service.request('PATCH', `/sandbox/users/${userId}/kycs`, {
        headers: authOf(merchant),
        json: { kyc: { status: 'approved' } },
      }),
      404,
      'route_not_found',
    );
    expectError(
      await service.request('POST', `/users/${userId}/kycs`, { headers: authOf(merchant) }),
      503,
      'service_unavailable',
    );
  });
});

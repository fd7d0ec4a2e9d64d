/**
 * A KYC step the database can never store does not wedge the user's workflow: it fails once, is shown
 * on the user, in the workflow's memo and the metrics, and later decisions still apply.
 */
import {
  finalFailureTypes,
  kycEventSignal,
  kycFailedStepMemo,
  kycWorkflowId,
  kycWorkflowType,
} from '@checkout/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createUser, decideKyc, expectError, waitForKyc } from '../support/areaB.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('a KYC step that cannot be stored', () => {
  let service: TestService;
  let merchant: TestMerchant;

  beforeAll(async () => {
    service = await startTestService();
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('is refused by the API before it reaches the workflow', async () => {
    const userId = await createUser(service, merchant);
    const res = await service.request('PATCH', `/sandbox/users/${userId}/kycs`, {
      headers: authOf(merchant),
      json: { kyc: { status: 'retry_required', moderation_comment: 'x\u0000' } },
    });
    expectError(res, 422, 'record_invalid');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['kyc.moderation_comment']);
  });

  it('fails once when signalled directly, is shown on the user, and a later decision still applies', async () => {
    const userId = await createUser(service, merchant);
    const temporal = service.deps.temporal!;
    // Past the API's check (and the outbox, whose jsonb refuses it too): the workflow is handed a comment
    // PostgreSQL refuses in jsonb.
    await temporal.client.workflow.signalWithStart(kycWorkflowType, {
      workflowId: kycWorkflowId(userId),
      taskQueue: service.deps.config.temporal.taskQueue,
      args: [{ userId, merchantId: merchant.merchantId }],
      signal: kycEventSignal,
      signalArgs: [{ source: 'provider', status: 'retry_required', moderationComment: 'x\u0000' }],
    });
    const noted = await waitForKyc(service, merchant, userId, (k) => k.status_message !== null);
    expect(noted.kyc.general).toEqual({ status: 'not_started', moderation_comment: null });
    expect(noted.kyc.status_message).toMatch(
      /^The retry_required decision could not be stored: .+SQLSTATE 22/,
    );

    const handle = temporal.client.workflow.getHandle(kycWorkflowId(userId));
    const description = await handle.describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.memo?.[kycFailedStepMemo]).toMatchObject({
      status: 'retry_required',
      type: finalFailureTypes.invalidData,
    });
    // One attempt only: the failure was final, not retried.
    const history = await handle.fetchHistory();
    const failedAttempts = (history.events ?? []).filter((e) => e.activityTaskFailedEventAttributes);
    expect(failedAttempts).toHaveLength(1);
    expect(
      failedAttempts[0]!.activityTaskFailedEventAttributes!.failure?.applicationFailureInfo,
    ).toMatchObject({
      type: finalFailureTypes.invalidData,
      nonRetryable: true,
    });

    const metrics = await service.request('GET', '/metrics');
    expect(metrics.text).toContain(
      `workflow_activity_final_failures_total{activity="recordKyc",type="${finalFailureTypes.invalidData}"} 1`,
    );

    await decideKyc(service, merchant, userId, { status: 'failed' });
    const decided = await waitForKyc(service, merchant, userId, (k) => k.general.status === 'failed');
    expect(decided.kyc.general).toEqual({
      status: 'failed',
      moderation_comment: 'The application was rejected.',
    });
    expect(decided.kyc.status_message).toBeNull();
  });
});

/** What ops see in the Temporal UI: workflows started by the API carry a one-line summary and details. */
import { kycWorkflowId } from '@checkout/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/areaB.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('workflow summaries in the Temporal UI', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it("a user's KYC onboarding says what it is and whose, by id", async () => {
    const merchant = await service.createMerchant();
    const userId = await createUser(service, merchant);
    const handle = service.deps.temporal!.client.workflow.getHandle(kycWorkflowId(userId));
    const description = await handle.describe();
    expect(await description.staticSummary()).toBe('KYC onboarding · individual user');
    expect(await description.staticDetails()).toBe(`user: ${userId}`);
  });
});

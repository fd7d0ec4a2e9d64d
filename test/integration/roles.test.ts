/** ROLE=api and ROLE=worker: an API without a worker, a worker without an API, working together. */
import { randomUUID } from 'node:crypto';
import { countLivePollers } from '@checkout/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUnavailable, type TestDatabase } from '../support/database.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('process roles', () => {
  const taskQueue = `roles-${randomUUID()}`;
  let db: TestDatabase;
  let api: TestService;
  let worker: TestService | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestService({ db, env: { ROLE: 'api', TEMPORAL_TASK_QUEUE: taskQueue } });
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await db?.close();
  });

  it('ROLE=api serves the API and leaves workflows to a worker elsewhere', async () => {
    const merchant = await api.createMerchant();
    expect((await api.request('GET', '/api/v1/products', { headers: merchant.headers })).status).toBe(200);
    const handle = await api.deps.temporal!.client.workflow.start('ping', {
      taskQueue,
      workflowId: `smoke-${randomUUID()}`,
      args: [{ message: 'queued' }],
    });
    // Nobody polls the queue: the API process runs no worker, so the workflow waits for its first task.
    const client = api.deps.temporal!.client;
    expect(await countLivePollers(client, client.options.namespace, taskQueue)).toEqual({
      workflow: 0,
      activity: 0,
    });
    const { historyLength } = await handle.describe();
    expect(historyLength).toBeLessThanOrEqual(2);

    worker = await startTestService({ db, env: { ROLE: 'worker', TEMPORAL_TASK_QUEUE: taskQueue } });
    const result = (await handle.result()) as { echoed: string };
    expect(result.echoed).toContain('queued');
  });

  it('ROLE=worker answers only /health and /metrics on its port', async () => {
    expect(worker).toBeDefined();
    const merchant = await api.createMerchant();
    const health = await worker!.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.temporal.status).toBe('ok');
    const metrics = await worker!.request('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('process_cpu_user_seconds_total');
    for (const path of ['/api/v1/products', '/openapi.json', '/widget/crypto-checkout.iife.js', '/users']) {
      expect((await worker!.request('GET', path, { headers: merchant.headers })).status, path).toBe(404);
    }
    expect(worker!.devApiKey).toBeUndefined();
  });

  it('ROLE=worker refuses to start without Temporal', async () => {
    await expect(
      startTestService({ db, temporal: false, env: { ROLE: 'worker', TEMPORAL_TASK_QUEUE: taskQueue } }),
    ).rejects.toThrow(/ROLE=worker needs Temporal: set TEMPORAL_ADDRESS/);
  });
});

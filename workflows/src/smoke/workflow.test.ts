import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../test/setup/temporal.ts';
import { startTestWorker } from '../../../test/support/temporal.ts';
import { searchAttributeKeys } from '../shared.ts';
import { installRuntime } from '../worker.ts';
import { createSmokeActivities } from './activities.ts';
import { pingContinueSignal, pingStatusQuery } from './shared.ts';
import { ping, sleepingPing } from './workflow.ts';

const twoDaysMs = 2 * 24 * 60 * 60 * 1000;

describe('smoke workflows on the dev server', () => {
  let temporal: TestWorkflowEnvironment;

  beforeAll(async () => {
    installRuntime({ logLevel: 'WARN' });
    temporal = await TestWorkflowEnvironment.createFromExistingServer({ address: inject('temporalAddress') });
  });

  afterAll(async () => {
    await temporal?.teardown();
  });

  it('registers every search attribute at startup', async () => {
    const { customAttributes } = await temporal.client.connection.operatorService.listSearchAttributes({
      namespace: 'default',
    });
    expect(Object.keys(customAttributes)).toEqual(
      expect.arrayContaining(searchAttributeKeys.map((key) => key.name)),
    );
  });

  it('ping round-trips through the echo activity and answers the status query', async () => {
    const { taskQueue, run } = await startTestWorker({
      connection: temporal.nativeConnection,
      activities: createSmokeActivities(),
    });
    const { result, status } = await run(async () => {
      const handle = await temporal.client.workflow.start(ping, {
        taskQueue,
        workflowId: `ping-${randomUUID()}`,
        args: [{ message: 'hello' }],
      });
      const result = await handle.result();
      return { result, status: await handle.query(pingStatusQuery) };
    });
    expect(result.echoed).toBe('pong: hello');
    expect(result.finishedAt).toBeGreaterThanOrEqual(result.startedAt);
    expect(status).toBe('done');
  });

  it('survives a worker restart while waiting for a signal', async () => {
    const workflowId = `ping-restart-${randomUUID()}`;
    const first = await startTestWorker({ connection: temporal.nativeConnection });
    const handle = await first.run(async () => {
      const started = await temporal.client.workflow.start(ping, {
        taskQueue: first.taskQueue,
        workflowId,
        args: [{ message: 'durable', waitForSignal: true }],
      });
      expect(await started.query(pingStatusQuery)).toBe('waiting');
      return started;
    });
    expect(first.worker.getState()).toBe('STOPPED');

    await handle.signal(pingContinueSignal);
    const second = await startTestWorker({
      connection: temporal.nativeConnection,
      taskQueue: first.taskQueue,
    });
    const result = await second.run(() => handle.result());
    expect(result.echoed).toBe('pong: durable');
    const description = await handle.describe();
    expect(description.status.name).toBe('COMPLETED');
  });
});

describe('smoke workflows on the time-skipping server', () => {
  it('sleepingPing sleeps two days of workflow time in seconds of wall time', async () => {
    installRuntime({ logLevel: 'WARN' });
    const env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: inject('temporalTestServerPath') } },
    });
    try {
      const { taskQueue, run } = await startTestWorker({ connection: env.nativeConnection });
      const wallStart = performance.now();
      const result = await run(() =>
        env.client.workflow.execute(sleepingPing, {
          taskQueue,
          workflowId: `sleeping-ping-${randomUUID()}`,
          args: [{ message: 'later', duration: '2 days' }],
        }),
      );
      const wallMs = performance.now() - wallStart;
      expect(result.echoed).toBe('pong: later');
      expect(result.finishedAt - result.startedAt).toBeGreaterThanOrEqual(twoDaysMs);
      expect(wallMs).toBeLessThan(30_000);
    } finally {
      await env.teardown();
    }
  });
});

/**
 * An onramp step the database can never store does not wedge the onramp's workflow: it fails once, is shown
 * on the onramp (its status_message, with an onramp_update webhook), in the workflow's memo and the metrics,
 * and a later deposit is still credited and the tokens sent.
 */
import {
  finalFailureTypes,
  onrampDepositSignal,
  onrampFailedStepMemo,
  onrampWorkflowId,
  onrampWorkflowType,
} from '@checkout/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createOnrampReadyUser } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('an onramp step that cannot be stored', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let receiver: WebhookReceiver;
  let userId: string;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({ env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl } });
    merchant = await service.createMerchant();
    receiver = await startWebhookReceiver();
    userId = await createOnrampReadyUser(service, merchant, receiver.url);
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await chain?.stop();
  });

  const show = async (id: string) =>
    (await service.request('GET', `/users/${userId}/onramps/${id}`, { headers: authOf(merchant) })).body
      .onramp;
  const waitFor = async (
    id: string,
    done: (o: { status: string; status_message: string | null }) => boolean,
  ) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const onramp = await show(id);
      if (done(onramp)) return onramp;
      if (Date.now() > deadline) throw new Error(`onramp stayed ${JSON.stringify(onramp)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('notes a deposit it cannot credit, and credits the next one', async () => {
    const created = await service.request('POST', `/users/${userId}/onramps`, {
      headers: authOf(merchant),
      json: {
        onramp: {
          destination_amount: '10',
          crypto_currency: 'usdc',
          crypto_rails: 'binance-smart-chain',
          destination_address: randomAddress(),
          fiat_currency: 'usd',
          fiat_rails: 'ach_push',
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const onramp = created.body.onramp as { id: string; expires_at?: string };
    const temporal = service.deps.temporal!;
    const row = await service.deps.db.kysely
      .selectFrom('onramps')
      .select(['expires_at'])
      .where('id', '=', onramp.id)
      .executeTakeFirstOrThrow();
    // Past the API's checks (and the outbox, whose jsonb refuses it too): the workflow is handed a deposit
    // id PostgreSQL refuses in jsonb.
    await temporal.client.workflow.signalWithStart(onrampWorkflowType, {
      workflowId: onrampWorkflowId(onramp.id),
      taskQueue: service.deps.config.temporal.taskQueue,
      args: [
        {
          onrampId: onramp.id,
          merchantId: merchant.merchantId,
          userId,
          expiresAt: row.expires_at.toISOString(),
        },
      ],
      signal: onrampDepositSignal,
      signalArgs: [{ depositId: 'd\u0000', amount: '11.00' }],
    });
    const noted = await waitFor(onramp.id, (o) => o.status_message !== null);
    expect(noted.status).toBe('initiated');
    expect(noted.status_message).toMatch(/^The onramp's deposit step failed and was skipped: .+SQLSTATE 22/);

    const handle = temporal.client.workflow.getHandle(onrampWorkflowId(onramp.id));
    const description = await handle.describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.memo?.[onrampFailedStepMemo]).toMatchObject({
      step: 'deposit',
      type: finalFailureTypes.invalidData,
    });
    const history = await handle.fetchHistory();
    const failed = (history.events ?? []).filter((e) => e.activityTaskFailedEventAttributes);
    expect(failed).toHaveLength(1);
    const metrics = await service.request('GET', '/metrics');
    expect(metrics.text).toContain(
      `workflow_activity_final_failures_total{activity="creditOnrampDeposit",type="${finalFailureTypes.invalidData}"} 1`,
    );
    // The merchant heard of it in an onramp_update.
    const deadline = Date.now() + 20_000;
    const noticed = () =>
      receiver.received
        .map((r) => JSON.parse(r.body))
        .some((b) => b.event === 'onramp_update' && b.payload.onramp.status_message === noted.status_message);
    while (!noticed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(noticed()).toBe(true);

    // A later deposit through the sandbox bank is credited, and the tokens go out.
    const deposit = await service.request('POST', `/sandbox/users/${userId}/onramps/${onramp.id}/deposit`, {
      headers: authOf(merchant),
      json: { amount: '11' },
    });
    expect(deposit.status, deposit.text).toBe(200);
    const sent = await waitFor(onramp.id, (o) => o.status === 'crypto_sent');
    expect(sent.status_message).toBeNull();
  });
});

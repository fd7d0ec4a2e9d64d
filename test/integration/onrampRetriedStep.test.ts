/**
 * A ramp step retried after its first attempt committed (the worker died before the activity returned)
 * hands on the webhook delivery that first attempt queued, so its `onramp_update` is delivered; the
 * treasury still sends once.
 */
import { randomUUID } from 'node:crypto';
import { erc20Abi } from '@checkout/chain';
import { createOnrampActivities, queueDeliveryStart } from '@checkout/workflows';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createOnrampReadyUser } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';

describe.skipIf(databaseUnavailable())('a retried onramp step', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  let receiver: WebhookReceiver;
  let userId: string;

  beforeAll(async () => {
    [chain, receiver] = await Promise.all([startTestChain(), startWebhookReceiver()]);
    service = await startTestService({ env: { RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl } });
    merchant = await service.createMerchant();
    userId = await createOnrampReadyUser(service, merchant, receiver.url);
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await chain?.stop();
  });

  it('returns the delivery its first attempt queued, and the update arrives', async () => {
    const destination = randomAddress();
    const created = await service.request('POST', `/users/${userId}/onramps`, {
      headers: authOf(merchant),
      json: {
        onramp: {
          destination_amount: '25.00',
          crypto_currency: 'usdc',
          crypto_rails: 'binance-smart-chain',
          destination_address: destination,
          fiat_currency: 'usd',
          fiat_rails: 'ach_push',
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const onrampId = created.body.onramp.id as string;

    // The steps of the onramp's workflow, run here directly (the workflow waits for a deposit signal it
    // never gets): credit the deposit, then send — twice, as a retry after a lost first return would.
    const { deps } = service;
    const steps = createOnrampActivities({
      db: deps.db,
      secrets: deps.secrets,
      chains: deps.chains,
      ramps: { treasuryPrivateKey: deps.config.ramps.treasuryPrivateKey },
    });
    const credited = await steps.creditOnrampDeposit({
      onrampId,
      deposit: { depositId: randomUUID(), amount: String(created.body.onramp.deposit_amount) },
    });
    expect(credited.status).toBe('funds_received');
    const first = await steps.sendOnrampCrypto({ onrampId });
    expect(first).toMatchObject({ status: 'sending_crypto' });
    expect(first.webhookDeliveryId).not.toBeNull();
    const retried = await steps.sendOnrampCrypto({ onrampId });
    expect(retried).toEqual(first);

    // What the workflow does with the step's answer: the delivery runs, and the update arrives.
    await deps.handOver.dispatcher.dispatch([
      await queueDeliveryStart(deps.db.kysely, retried.webhookDeliveryId!),
    ]);
    const deadline = Date.now() + 30_000;
    let update: { status?: string } | undefined;
    while (!update && Date.now() < deadline) {
      update = receiver.received
        .map((r) => JSON.parse(r.body) as { payload?: { onramp?: { id: string; status: string } } })
        .map((b) => b.payload?.onramp)
        .find((o) => o?.id === onrampId && o.status === 'sending_crypto');
      if (!update) await new Promise((r) => setTimeout(r, 100));
    }
    expect(update).toBeDefined();

    // The treasury sent once, for the two calls.
    const balance = await chain.publicClient.readContract({
      address: chain.deployment.tokens.USDC.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [destination as `0x${string}`],
    });
    expect(balance).toBe(parseUnits('25', chain.deployment.tokens.USDC.decimals));
  }, 120_000);
});

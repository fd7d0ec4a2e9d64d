/**
 * An offramp step that fails for good does not stop the quote's other payouts: the offramp is noted
 * (status_message, offramp_update), the memo shows it, and the other offramp is paid out. The refusal is
 * injected into the payout submission of one offramp.
 */
import {
  createQuoteActivities,
  failedStepMemo,
  finalFailureTypes,
  quoteWorkflowId,
} from '@checkout/workflows';
import { ApplicationFailure } from '@temporalio/common';
import { english, generateMnemonic } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createPayoutReadyUser } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { startTestService, type TestMerchant, type TestService } from '../support/service.ts';

describe.skipIf(databaseUnavailable())('an offramp step that fails for good', () => {
  let chain: TestChain;
  let service: TestService;
  let merchant: TestMerchant;
  const refused = new Set<string>();
  // The partner calls go through one set of quote activities, so submission and settlement meet.
  let own: ReturnType<typeof createQuoteActivities> | undefined;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        PAYOUT_SANDBOX_DELAY_MS: '100',
        DEPOSIT_MNEMONIC: generateMnemonic(english),
      },
      extraActivities: {
        async submitOfframpPayout(input: { offrampId: string }) {
          if (refused.has(input.offrampId)) {
            throw ApplicationFailure.create({
              type: finalFailureTypes.constraint,
              nonRetryable: true,
              message: 'new row violates check constraint (SQLSTATE 23514)',
            });
          }
          return own!.submitOfframpPayout(input);
        },
        settleOfframpPayout: (input: { offrampId: string }) => own!.settleOfframpPayout(input),
      },
    });
    own = createQuoteActivities({
      db: service.deps.db,
      secrets: service.deps.secrets,
      chains: service.deps.chains,
      tokens: service.deps.tokens,
      ramps: service.deps.config.ramps,
    });
    merchant = await service.createMerchant();
  });
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  it('notes the offramp and pays out the other one', async () => {
    const { userId, detail } = await createPayoutReadyUser(service, merchant);
    const auth = authOf(merchant);
    const quote = await service.request('POST', `/users/${userId}/quotes`, {
      headers: auth,
      json: { quote: { deposit_token: 'usdc', deposit_token_chain: 'binance-smart-chain' } },
    });
    expect(quote.status, quote.text).toBe(200);
    const quoteId = quote.body.quote.id as string;
    const added = await service.request('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
      headers: auth,
      json: {
        offramps: [
          { payment_detail_id: detail, destination_amount: '10', destination_currency: 'usd' },
          { payment_detail_id: detail, destination_amount: '20', destination_currency: 'usd' },
        ],
      },
    });
    expect(added.status, added.text).toBe(200);
    const [poisoned, fine] = added.body.offramps.map((o: { id: string }) => o.id) as [string, string];
    refused.add(poisoned);
    const shown = await service.request('GET', `/users/${userId}/quotes/${quoteId}`, { headers: auth });
    const due = BigInt(Math.round(shown.body.quote.deposit_token_amount * 1e6));
    const tx = await chain.transfer(
      0,
      chain.deployment.tokens.USDC.address,
      quote.body.deposit_address.adddress,
      due,
    );
    const executed = await service.request('POST', `/users/${userId}/quotes/${quoteId}/execute`, {
      headers: auth,
      json: {
        quote: { crypto_transfer: { tx_id: tx, blockchain: 'binance-smart-chain', network: 'testnet' } },
      },
    });
    expect(executed.status, executed.text).toBe(200);

    const offramp = async (id: string) =>
      (await service.request('GET', `/users/${userId}/offramps/${id}`, { headers: auth })).body.offramp;
    const deadline = Date.now() + 30_000;
    let a = await offramp(poisoned);
    let b = await offramp(fine);
    while ((b.status !== 'fiat_sent' || a.status_message === null) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      [a, b] = [await offramp(poisoned), await offramp(fine)];
    }
    expect(b.status).toBe('fiat_sent');
    expect(a.status).toBe('pending_internal_assessment');
    expect(a.status_message).toMatch(/^The offramp's payout step failed and was stopped: .+SQLSTATE 23514/);
    const handle = service.deps.temporal!.client.workflow.getHandle(quoteWorkflowId(quoteId));
    const description = await handle.describe();
    expect(description.status.name).not.toBe('FAILED');
    expect(description.memo?.[failedStepMemo]).toMatchObject({
      offrampId: poisoned,
      type: finalFailureTypes.constraint,
    });
  });
});

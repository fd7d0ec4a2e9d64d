/**
 * Ramp writes accepted while Temporal is unreachable: a quote execute, a new quote, a new onramp and a
 * deposit notice are committed and answered with their workflow calls queued (`workflow_calls`), then get
 * their workflows once Temporal is back, through the hand-over's sweep; the payouts and the on-chain delivery
 * happen exactly as without the outage.
 */
import { erc20Abi } from '@checkout/chain';
import { OnrampResponse, QuoteResponse, SandboxDepositResponse } from '@checkout/core';
import { onrampWorkflowId, quoteWorkflowId } from '@checkout/workflows';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authOf, createPayoutReadyUser } from '../support/areaB.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { randomAddress, startTestService, type TestMerchant, type TestService } from '../support/service.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcpProxy.ts';

describe.skipIf(databaseUnavailable())('ramps while Temporal is down', () => {
  let chain: TestChain;
  let proxy: TcpProxy;
  let service: TestService;
  let merchant: TestMerchant;
  let userId: string;
  let detail: string;

  beforeAll(async () => {
    [chain, proxy] = await Promise.all([startTestChain(), startTcpProxy(inject('temporalAddress'))]);
    service = await startTestService({
      temporalAddress: proxy.address,
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        PAYOUT_SANDBOX_DELAY_MS: '200',
        RAMP_RECONCILE_INTERVAL_MS: '500',
      },
    });
    merchant = await service.createMerchant();
    ({ userId, detail } = await createPayoutReadyUser(service, merchant));
  });
  afterAll(async () => {
    proxy?.up();
    await service?.stop();
    await proxy?.close();
    await chain?.stop();
  });

  const api = (method: string, path: string, json?: unknown) =>
    service.request(method, path, { headers: authOf(merchant), ...(json === undefined ? {} : { json }) });
  const usdc = () => chain.deployment.tokens.USDC.address;
  const newQuote = () =>
    api('POST', `/users/${userId}/quotes`, {
      quote: { deposit_token: 'usdc', deposit_token_chain: 'binance-smart-chain' },
    });
  const newOnramp = (destination: string, amount: string) =>
    api('POST', `/users/${userId}/onramps`, {
      onramp: {
        destination_amount: amount,
        crypto_currency: 'usdc',
        crypto_rails: 'binance-smart-chain',
        destination_address: destination,
        fiat_currency: 'usd',
        fiat_rails: 'ach_push',
      },
    });
  /** Polls (bounded) until `done` holds for the GET body. */
  // biome-ignore lint/suspicious/noExplicitAny: bodies are inspected field by field
  const waitFor = async (path: string, done: (body: any) => boolean, timeoutMs = 45_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await api('GET', path);
      expect(res.status, res.text).toBe(200);
      if (done(res.body)) return res.body;
      if (Date.now() > deadline) throw new Error(`${path} stayed ${res.text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** The workflow calls queued for a workflow, oldest first: which kind, and whether Temporal took it. */
  const calls = async (workflowId: string) =>
    (
      await service.db.kysely
        .selectFrom('workflow_calls')
        .select(['kind', 'call', 'taken_at'])
        .where('workflow_id', '=', workflowId)
        .orderBy('created_at')
        .execute()
    )
      // The chain's watcher also reports each transfer into a quote's deposit address (depositReported).
      .filter((c) => c.call.signal?.name !== 'depositReported')
      .map((c) => `${c.call.signal?.name ?? c.kind}:${c.taken_at ? 'taken' : 'waiting'}`);

  it('commits an execute, a quote, an onramp and a deposit while Temporal is down; all reach their workflows after', async () => {
    // Before the outage: a quote with two payouts, funded on chain, and an onramp awaiting its deposit.
    const quote = await newQuote();
    expect(quote.status, quote.text).toBe(200);
    const quoteId = quote.body.quote.id as string;
    const added = await api('POST', `/users/${userId}/quotes/${quoteId}/offramps`, {
      offramps: [
        { payment_detail_id: detail, destination_amount: 10, destination_currency: 'usd' },
        { payment_detail_id: detail, destination_amount: '20.50', destination_currency: 'usd' },
      ],
    });
    expect(added.status, added.text).toBe(200);
    const due = (await api('GET', `/users/${userId}/quotes/${quoteId}`)).body.quote.deposit_token_amount;
    const hash = await chain.transfer(0, usdc(), quote.body.deposit_address.adddress, BigInt(due * 1e6));
    const waiting = randomAddress();
    const early = await newOnramp(waiting, '12.34');
    expect(early.status, early.text).toBe(200);
    const earlyId = early.body.onramp.id as string;

    proxy.down();
    const fresh = randomAddress();
    const [executed, lateQuote, lateOnramp, deposit] = await Promise.all([
      api('POST', `/users/${userId}/quotes/${quoteId}/execute`, {
        quote: { crypto_transfer: { tx_id: hash, blockchain: 'binance-smart-chain', network: 'testnet' } },
      }),
      newQuote(),
      newOnramp(fresh, '3.21'),
      api('POST', `/sandbox/users/${userId}/onramps/${earlyId}/deposit`, { amount: '13.34' }),
    ]);
    // Every write was accepted and is durable; none of their workflow calls got through.
    expect(executed.status, executed.text).toBe(200);
    QuoteResponse.parse(executed.body);
    expect(executed.body.quote.executed).toBe(true);
    expect(lateQuote.status, lateQuote.text).toBe(200);
    expect(lateOnramp.status, lateOnramp.text).toBe(200);
    OnrampResponse.parse(lateOnramp.body);
    expect(deposit.status, deposit.text).toBe(200);
    SandboxDepositResponse.parse(deposit.body);
    expect(deposit.body.deposit).toMatchObject({ onramp_id: earlyId, amount: 13.34 });
    const lateQuoteId = lateQuote.body.quote.id as string;
    const lateOnrampId = lateOnramp.body.onramp.id as string;
    expect(await calls(quoteWorkflowId(quoteId))).toEqual(['start:taken', 'quoteExecuted:waiting']);
    expect(await calls(quoteWorkflowId(lateQuoteId))).toEqual(['start:waiting']);
    expect(await calls(onrampWorkflowId(lateOnrampId))).toEqual(['start:waiting']);
    expect(await calls(onrampWorkflowId(earlyId))).toEqual(['start:taken', 'onrampDeposit:waiting']);
    for (const o of added.body.offramps) {
      expect((await api('GET', `/users/${userId}/offramps/${o.id}`)).body.offramp.status).toBe('initiated');
    }

    proxy.up();
    // The sweep hands each write to its workflow: the payouts run, the deposit is credited and sent.
    for (const o of added.body.offramps) {
      await waitFor(`/users/${userId}/offramps/${o.id}`, (b) => b.offramp.status === 'fiat_sent');
    }
    const sent = await waitFor(
      `/users/${userId}/onramps/${earlyId}`,
      (b) => b.onramp.status === 'crypto_sent',
    );
    expect(sent.onramp.received_amount).toBe(13.34);
    const balance = await chain.publicClient.readContract({
      address: usdc(),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [waiting as `0x${string}`],
    });
    expect(balance).toBe(12_340_000n);

    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const [q, o] = await Promise.all([
        calls(quoteWorkflowId(lateQuoteId)),
        calls(onrampWorkflowId(lateOnrampId)),
      ]);
      if (q[0] === 'start:taken' && o[0] === 'start:taken') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await calls(quoteWorkflowId(quoteId))).toEqual(['start:taken', 'quoteExecuted:taken']);
    expect(await calls(quoteWorkflowId(lateQuoteId))).toEqual(['start:taken']);
    expect(await calls(onrampWorkflowId(lateOnrampId))).toEqual(['start:taken']);
    expect(await calls(onrampWorkflowId(earlyId))).toEqual(['start:taken', 'onrampDeposit:taken']);
    const client = service.deps.temporal!.client;
    const lateQuoteRun = await client.workflow.getHandle(quoteWorkflowId(lateQuoteId)).describe();
    expect(lateQuoteRun.status.name).toBe('RUNNING');
    const lateOnrampRun = await client.workflow.getHandle(onrampWorkflowId(lateOnrampId)).describe();
    expect(lateOnrampRun.status.name).toBe('RUNNING');
    // The onramp created during the outage works as any other: its deposit is credited and delivered.
    const paid = await api('POST', `/sandbox/users/${userId}/onramps/${lateOnrampId}/deposit`, {
      amount: lateOnramp.body.onramp.deposit_amount,
    });
    expect(paid.status, paid.text).toBe(200);
    await waitFor(`/users/${userId}/onramps/${lateOnrampId}`, (b) => b.onramp.status === 'crypto_sent');
  });
});

/**
 * A step that finds its effect claimed by another attempt waits for it in short looks, not for the holder's
 * whole lease: two unmatched transfers told in one e-mail batch, the batch's message held at the SMTP server
 * until the second transfer's step has found the batch claimed. Once the server takes it, both workflows
 * end long before the claim's lease would have run out (read from the claim row and Temporal's close
 * times), and the message was sent once.
 */
import { installRuntime, unmatchedWorkflowId } from '@checkout/workflows';
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { databaseUnavailable } from '../support/database.ts';
import { type ScriptedSmtp, type SmtpAnswer, startScriptedSmtp } from '../support/scriptedSmtp.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { waitFor } from '../support/waitFor.ts';

describe.skipIf(databaseUnavailable())('an effect claimed by another attempt', () => {
  let chain: TestChain;
  let service: TestService;
  let smtp: ScriptedSmtp;
  let release: (answer: SmtpAnswer) => void = () => undefined;
  const held = new Promise<SmtpAnswer>((resolve) => {
    release = resolve;
  });
  // What the worker logs, for the step's "looking again" line (the runtime is installed before the service's).
  const lines: string[] = [];
  const note = (_level: string, message: string, meta?: Record<string, unknown>) => {
    lines.push(`${message} ${JSON.stringify(meta ?? {})}`);
  };
  installRuntime({
    logger: {
      log: note,
      trace: (m, meta) => note('TRACE', m, meta),
      debug: (m, meta) => note('DEBUG', m, meta),
      info: (m, meta) => note('INFO', m, meta),
      warn: (m, meta) => note('WARN', m, meta),
      error: (m, meta) => note('ERROR', m, meta),
    },
  });

  beforeAll(async () => {
    [chain, smtp] = await Promise.all([startTestChain(), startScriptedSmtp(() => held)]);
    service = await startTestService({
      env: {
        RPC_URL_BINANCE_SMART_CHAIN_TESTNET: chain.chain.rpcUrl,
        SMTP_URL: smtp.url,
        CHAIN_POLL_INTERVAL_MS: '100',
        CHECKOUT_SCAN_INTERVAL_MS: '100',
        UNMATCHED_EMAIL_INTERVAL_SECONDS: '2',
      },
    });
  }, 120_000);
  afterAll(async () => {
    release('accept');
    await service?.stop();
    await Promise.all([chain?.stop(), smtp?.close()]);
  });

  it('ends the second transfer of an e-mail batch as soon as the batch is sent', async () => {
    const merchant = await service.createMerchant();
    const busd = chain.deployment.tokens.BUSD.address;
    const created = await service.request('POST', '/api/v1/products', {
      headers: merchant.headers,
      json: {
        product: {
          name: 'Strays',
          email: 'strays@example.com',
          active: true,
          token: { blockchain: 'binance-smart-chain', network: 'testnet', address: busd },
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    // An open checkout makes the wallet watched; two transfers fit no order.
    const expected = await service.request(
      'POST',
      `/api/v1/products/${created.body.product.id}/expected_payments`,
      { headers: merchant.headers, json: { dollar_amount: '50.00' } },
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
    // Both transfers in one block, so that one e-mail batch tells both.
    const rpc = chain.publicClient.request as (call: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    await rpc({ method: 'evm_setAutomine', params: [false] });
    const mined = [0, 1].map((i) =>
      chain.transfer(1 + i, busd, merchant.address as Address, parseUnits(`${1 + i}`, 18)),
    );
    await waitFor(
      () => chain.publicClient.getBlock({ blockTag: 'pending' }),
      (block) => block.transactions.length === 2,
      'the transfers never reached the node',
    );
    await rpc({ method: 'evm_mine', params: [] });
    await rpc({ method: 'evm_setAutomine', params: [true] });
    await Promise.all(mined);
    const db = service.deps.db.kysely;
    const rows = await waitFor(
      () =>
        db
          .selectFrom('unmatched_transfers')
          .select(['id', 'mail_batch'])
          .where('merchant_id', '=', merchant.merchantId)
          .execute(),
      (r) => r.length === 2 && r.every((t) => t.mail_batch !== null),
      'the transfers were never both put in an e-mail batch',
    );
    const batches = new Set(rows.map((r) => r.mail_batch));
    expect(batches.size).toBe(1);
    const batch = rows[0]!.mail_batch!;
    // The batch's message is at the server, unanswered: its claim is held. The other transfer's step finds it
    // claimed and looks again.
    await waitFor(
      async () => smtp.messages.length,
      (n) => n === 1,
      'the batch was never sent',
    );
    await waitFor(
      async () => lines.filter((l) => l.includes('looking again') && l.includes(batch)).length,
      (n) => n > 0,
      'no step found the batch claimed by another',
    );
    release('accept');

    // Sealing both fates ends each workflow once its e-mail step has ended.
    for (const { id } of rows) {
      const dismissed = await service.request('POST', `/api/v1/unmatched_transfers/${id}/dismiss`, {
        headers: merchant.headers,
        json: { note: 'Not ours' },
      });
      expect(dismissed.status, dismissed.text).toBe(200);
    }
    const client = service.deps.temporal!.client;
    const results = await Promise.all(
      rows.map((r) => client.workflow.getHandle(unmatchedWorkflowId(r.id)).result()),
    );
    expect(results.map((r) => r.sent).sort()).toEqual([0, 1]);
    const claim = await db
      .selectFrom('effect_claims')
      .select(['status', 'claimed_until'])
      .where('key', '=', batch)
      .executeTakeFirstOrThrow();
    expect(claim.status).toBe('done');
    for (const { id } of rows) {
      const described = await client.workflow.getHandle(unmatchedWorkflowId(id)).describe();
      expect(described.closeTime!.getTime()).toBeLessThan(claim.claimed_until.getTime());
    }
    expect(smtp.messages).toHaveLength(1);
  }, 120_000);
});
